import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { SecretIdAccessors } from './approle-secret-id-accessors.js';
import { SecretIdGenerate } from './approle-secret-id-generate.js';

/**
 * One AppRole role (`auth/<mount>/role/<name>`): its role ID, `Generate secret ID` (shown once), and
 * the accessors of its secret IDs, each looked up or destroyed.
 */
export function AppRoleRole({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const role = params.role ?? '';
  const base = `auth/${mount}/role/${role}`;
  const roleId = useLoad(() => api.read<{ role_id: string }>(`${base}/role-id`), [base]);
  const accessors = useLoad(() => api.list(`${base}/secret-id`), [base]);
  const destroy = `${base}/secret-id-accessor/destroy`;
  const caps = useCapabilities([`${base}/role-id`, `${base}/secret-id`, `${base}/secret-id/`, destroy]);
  return (
    <Page
      title={role}
      crumbs={[
        ...ACCESS_CRUMBS,
        { label: 'Auth methods', to: '/access/auth' },
        { label: `${mount}/`, to: pathOf('access', 'auth', mount) },
      ]}
    >
      {caps.allows(`${base}/role-id`, 'read') && (
        <section aria-labelledby="role-id-heading">
          <h2 id="role-id-heading">Role ID</h2>
          <ErrorMessage error={roleId.error} />
          {roleId.data && (
            <p>
              <span class="code">{roleId.data.role_id}</span> <CopyButton value={roleId.data.role_id} />
            </p>
          )}
        </section>
      )}
      {caps.allows(`${base}/secret-id`, ['create', 'update']) && (
        <SecretIdGenerate base={base} onGenerated={accessors.reload} />
      )}
      {caps.allows(`${base}/secret-id/`, 'list') && (
        <SecretIdAccessors base={base} accessors={accessors} canDestroy={caps.allows(destroy, ['update', 'create'])} />
      )}
    </Page>
  );
}
