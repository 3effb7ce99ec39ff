import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** A database engine's static roles (one database user each, its password rotated by Ward). */
export function DbStaticRoles({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const roles = useLoad(() => api.list(`${mount}/static-roles`), [mount]);
  return (
    <Page title="Static roles" crumbs={engineCrumbs(mount, 'database')}>
      <ErrorMessage error={roles.error} />
      {roles.isLoading && !roles.data && <Loading />}
      {roles.data && roles.data.length === 0 && <p>No static roles yet.</p>}
      {roles.data && roles.data.length > 0 && (
        <ul class="list">
          {roles.data.map((r) => (
            <li key={r}>
              <Link to={pathOf('secrets', mount, 'database', 'static-roles', r)} class="code">
                {r}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
