import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DeletableList } from '../../components/deletable-list.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { MethodKind } from './method-kinds.js';

/** On an auth method's screen: a link to its configuration, and its roles (each a link, deletable). */
export function AuthMethodSettings({ mount, kind }: { mount: string; kind: MethodKind }) {
  const { api } = useApp();
  const base = kind.rolesPath ? `auth/${mount}/${kind.rolesPath}` : undefined;
  const roles = useLoad(async () => (base ? api.list(base) : []), [base]);
  const config = kind.configPath && `auth/${mount}/${kind.configPath}`;
  const caps = useCapabilities([...(base ? [`${base}/`, `${base}/example`] : []), ...(config ? [config] : [])]);
  const noun = kind.roleNoun ?? 'role';
  const title = noun === 'role' ? 'Roles' : `${noun[0]?.toUpperCase()}${noun.slice(1)}s`;
  return (
    <>
      {config && caps.allows(config, ['read', 'create', 'update']) && (
        <section aria-labelledby="config-heading">
          <h2 id="config-heading">Configuration</h2>
          <p>
            <Link to={pathOf('access', 'auth-config', mount)}>Configure {mount}/</Link> (
            <span class="code">{config}</span>)
          </p>
        </section>
      )}
      {base && caps.allows(`${base}/`, 'list') && (
        <section aria-labelledby="roles-heading">
          <h2 id="roles-heading">{title}</h2>
          <ErrorMessage error={roles.error} />
          {roles.data?.length === 0 && <p>No {noun}s yet.</p>}
          {roles.data && roles.data.length > 0 && (
            <DeletableList
              label={title}
              noun={noun}
              items={roles.data}
              canDelete={caps.allows(`${base}/example`, 'delete')}
              render={(r) => <Link to={pathOf('access', 'auth-role', mount, r)}>{r}</Link>}
              onDelete={async (r) => {
                await api.delete(`${base}/${r}`);
                roles.reload();
              }}
            />
          )}
          {caps.allows(`${base}/example`, ['create', 'update']) && (
            <p>
              <Link to={pathOf('access', 'auth-role', mount)}>Create {noun}</Link>
            </p>
          )}
        </section>
      )}
    </>
  );
}
