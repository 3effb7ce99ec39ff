import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { SNAPSHOT_CONFIG } from './snapshots-auto.js';

const STATUS_LABELS: readonly (readonly [string, string])[] = [
  ['last_snapshot_start', 'Last snapshot started'],
  ['last_snapshot_end', 'Last snapshot ended'],
  ['last_snapshot_url', 'Last snapshot'],
  ['last_snapshot_error', 'Last error'],
  ['snapshot_start', 'Snapshot in progress since'],
];

/** One automated snapshot configuration (secrets not returned), its status, and deleting it. */
export function SnapshotAuto({ params }: ScreenProps) {
  const { api, router } = useApp();
  const name = params.name ?? '';
  const config = useLoad(() => api.read<Record<string, unknown>>(`${SNAPSHOT_CONFIG}/${name}`), [name]);
  const status = useLoad(
    () => api.read<Record<string, string>>(`sys/storage/raft/snapshot-auto/status/${name}`),
    [name],
  );
  const caps = useCapabilities([`${SNAPSHOT_CONFIG}/${name}`]);
  const remove = useAction(async () => {
    await api.delete(`${SNAPSHOT_CONFIG}/${name}`);
    router.navigate('/access/snapshots');
  });
  return (
    <Page
      title={name}
      crumbs={[...ACCESS_CRUMBS, { label: 'Automated snapshots', to: '/access/snapshots' }]}
      actions={
        caps.allows(`${SNAPSHOT_CONFIG}/${name}`, 'sudo') && (
          <ConfirmButton
            label="Delete configuration"
            question={`Delete ${name}? Snapshots already taken stay.`}
            confirmLabel="Delete now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={remove.error ?? config.error} />
      {config.isLoading && !config.data && <Loading />}
      {config.data && <CredentialFacts data={config.data} label="Configuration" isSorted />}
      <section aria-labelledby="status-heading">
        <div class="page-head">
          <h2 id="status-heading">Status</h2>
          <button type="button" class="secondary" onClick={() => status.reload()}>
            Refresh status
          </button>
        </div>
        <ErrorMessage error={status.error} />
        {status.data && (
          <dl class="facts" aria-label="Status">
            {STATUS_LABELS.map(([k, label]) => (
              <div key={k}>
                <dt>{label}</dt>
                <dd class="code">{status.data?.[k] || '—'}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </Page>
  );
}
