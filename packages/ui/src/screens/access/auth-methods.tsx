import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS, trimSlashes } from './access-shared.js';

export interface AuthMount {
  path: string;
  type: string;
  accessor: string;
  description: string;
}

/** Every enabled auth method (`sys/auth`), as `path → mount`. */
export async function authMounts(api: ReturnType<typeof useApp>['api']): Promise<AuthMount[]> {
  const data = (await api.read<Record<string, Omit<AuthMount, 'path'>>>('sys/auth')) ?? {};
  return Object.entries(data)
    .filter(([, m]) => typeof m === 'object' && m !== null && 'type' in m)
    .map(([path, m]) => ({ path, type: m.type, accessor: m.accessor, description: m.description }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The auth methods enabled (`sys/auth`), each a link to its settings. */
export function AuthMethods() {
  const { api } = useApp();
  const mounts = useLoad(() => authMounts(api), []);
  const caps = useCapabilities(['sys/auth/example']);
  return (
    <Page
      title="Auth methods"
      crumbs={ACCESS_CRUMBS}
      actions={
        caps.allows('sys/auth/example', ['create', 'update', 'sudo']) && (
          <Link to="/access/auth/enable" class="button">
            Enable new method
          </Link>
        )
      }
    >
      <ErrorMessage error={mounts.error} />
      {mounts.isLoading && !mounts.data && <Loading />}
      {mounts.data && (
        <DataTable
          label="Auth methods"
          rows={mounts.data}
          keyOf={(m) => m.path}
          columns={[
            {
              header: 'Path',
              cell: (m) => (
                <Link to={pathOf('access', 'auth', trimSlashes(m.path))} class="code">
                  {m.path}
                </Link>
              ),
            },
            { header: 'Type', cell: (m) => m.type },
            { header: 'Accessor', cell: (m) => m.accessor, class: 'code' },
            { header: 'Description', cell: (m) => m.description },
          ]}
        />
      )}
    </Page>
  );
}
