import type { KvMetadata } from '@ward/secrets-client';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatTime } from '../../components/format.js';
import { Link } from '../../components/link.js';
import { useAction } from '../../hooks/use-action.js';
import type { KvMount } from './kv-api.js';
import { encodePath } from './use-kv-mount.js';

/**
 * A KV v2 secret's history: each version with when it was written and deleted, a link to see it,
 * and restore (write its data as a new version), delete, undelete and destroy.
 */
export function KvVersions(p: {
  kv: KvMount;
  path: string;
  metadata: KvMetadata;
  shown: number | undefined;
  onChange(): void;
}) {
  const { router } = useApp();
  const { kv, path, metadata } = p;
  const base = `/secrets/${encodeURIComponent(kv.path.slice(0, -1))}/show/${encodePath(path)}`;
  const act = useAction(async (work: () => Promise<unknown>) => {
    await work();
    p.onChange();
  });
  const restore = useAction(async (version: number) => {
    const old = await kv.read(path, version);
    if (!old?.data) throw new Error(`version ${version} has no data to restore`);
    // Check-and-set on the current version: a version written meanwhile is not overwritten unseen.
    await kv.write(path, old.data, metadata.current_version);
    router.navigate(base);
    p.onChange();
  });
  const may = useCapabilities(['data', 'delete', 'undelete', 'destroy'].map((op) => `${kv.path}${op}/${path}`));
  const can = (op: string) => may.allows(`${kv.path}${op}/${path}`, ['create', 'update']);
  const versions = Object.entries(metadata.versions)
    .map(([n, v]) => {
      // A deletion_time in the future is delete_version_after's schedule, not a deletion yet.
      const isDeleted = v.deletion_time !== '' && Date.parse(v.deletion_time) <= Date.now();
      return { n: Number(n), ...v, isDeleted, isCurrent: Number(n) === metadata.current_version };
    })
    .sort((a, b) => b.n - a.n);
  type Row = (typeof versions)[number];
  const stateOf = (v: Row) =>
    v.destroyed ? 'destroyed' : v.isDeleted ? `deleted ${formatTime(v.deletion_time)}` : 'available';
  const actionsOf = (v: Row) => (
    <div class="actions">
      {v.n !== p.shown && (
        <Link to={`${base}?version=${v.n}`}>
          <span aria-hidden="true">View</span>
          <span class="visually-hidden">View version {v.n}</span>
        </Link>
      )}
      {can('data') && !v.isCurrent && !v.isDeleted && !v.destroyed && (
        <button type="button" class="secondary" onClick={() => restore.run(v.n)}>
          Restore version {v.n}
        </button>
      )}
      {can('delete') && !v.isDeleted && !v.destroyed && (
        <button type="button" class="secondary" onClick={() => act.run(() => kv.deleteVersions(path, [v.n]))}>
          Delete version {v.n}
        </button>
      )}
      {can('undelete') && v.isDeleted && !v.destroyed && (
        <button type="button" class="secondary" onClick={() => act.run(() => kv.undelete(path, [v.n]))}>
          Undelete version {v.n}
        </button>
      )}
      {can('destroy') && !v.destroyed && (
        <ConfirmButton
          label={`Destroy version ${v.n}`}
          question={`Destroy version ${v.n} for good?`}
          confirmLabel={`Destroy version ${v.n} now`}
          onConfirm={() => act.run(() => kv.destroy(path, [v.n]))}
        />
      )}
    </div>
  );
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <ErrorMessage error={act.error ?? restore.error} />
      <DataTable
        label="Versions"
        rows={versions}
        keyOf={(v) => v.n}
        isCurrent={(v) => v.n === p.shown}
        columns={[
          { header: 'Version', cell: (v) => `${v.n}${v.isCurrent ? ' (current)' : ''}`, isRowHeader: true },
          { header: 'Created', cell: (v) => formatTime(v.created_time) },
          { header: 'State', cell: stateOf },
          { header: 'Actions', cell: actionsOf },
        ]}
      />
    </section>
  );
}
