import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { type EngineMount, engineHome, engineList, kvVersionOf } from './engines.js';

/** The secrets engines this token can see, each a link named by its path (`secret/`). */
export function SecretsList() {
  const { api } = useApp();
  const mounts = useLoad(
    async () =>
      engineList(await api.read<{ secret?: Record<string, Omit<EngineMount, 'path'>> }>('sys/internal/ui/mounts')),
    [],
  );
  const caps = useCapabilities(['sys/mounts/example']);
  const canEnable = caps.allows('sys/mounts/example', ['create', 'update', 'sudo']);
  return (
    <Page
      title="Secrets engines"
      actions={
        canEnable && (
          <Link to="/secrets/enable" class="button">
            Enable new engine
          </Link>
        )
      }
    >
      <ErrorMessage error={mounts.error} />
      {mounts.isLoading && !mounts.data && <Loading />}
      {mounts.data && mounts.data.length === 0 && <p>No secrets engine is visible to this token.</p>}
      {mounts.data && mounts.data.length > 0 && (
        <DataTable
          label="Secrets engines"
          rows={mounts.data}
          keyOf={(m) => m.path}
          columns={[
            {
              header: 'Path',
              cell: (m) => (
                <Link to={engineHome(m)} class="code">
                  {m.path}
                </Link>
              ),
            },
            {
              header: 'Type',
              cell: (m) => `${m.type}${m.type === 'kv' && kvVersionOf(m) ? ` v${kvVersionOf(m)}` : ''}`,
            },
            { header: 'Description', cell: (m) => m.description },
          ]}
        />
      )}
    </Page>
  );
}
