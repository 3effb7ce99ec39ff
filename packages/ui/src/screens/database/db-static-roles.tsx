import { useApp } from '../../app-context.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
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
      <NamedList
        list={roles}
        empty="No static roles yet."
        hrefOf={(r) => pathOf('secrets', mount, 'database', 'static-roles', r)}
      />
    </Page>
  );
}
