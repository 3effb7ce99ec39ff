import type { KvMetadata } from '@ward/secrets-client';
import { Fragment } from 'preact';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatTime } from '../../components/format.js';
import { Link } from '../../components/link.js';
import { MaskedValue } from '../../components/masked-value.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import type { KvMount } from './kv-api.js';
import { KvVersions } from './kv-versions.js';
import { encodePath, kvCrumbs, useKvMount } from './use-kv-mount.js';

/** One secret: its keys with masked values, and (v2) its versions, their history and its metadata. */
export function KvSecret({ params }: ScreenProps) {
  const { router } = useApp();
  const segment = params.mount ?? '';
  const path = params.path ?? '';
  const asked = Number(router.location.query.get('version') ?? '') || undefined;
  const mount = useKvMount(segment);
  const kv = mount.data;
  const secret = useLoad(async () => {
    if (!kv) return undefined;
    const [read, metadata] = await Promise.all([
      kv.read(path, asked),
      kv.version === 2 ? kv.metadata(path) : Promise.resolve(undefined),
    ]);
    return { read, metadata };
  }, [kv, path, asked]);
  const base = `/secrets/${encodeURIComponent(segment)}`;
  const metadata = secret.data?.metadata;
  const version = asked ?? metadata?.current_version;
  const versionInfo = version !== undefined ? metadata?.versions[String(version)] : undefined;
  const data = secret.data?.read?.data;
  return (
    <Page
      title={path}
      crumbs={kvCrumbs(segment, path)}
      actions={kv && <SecretActions kv={kv} base={base} path={path} metadata={metadata} hasData={!!data} />}
    >
      <ErrorMessage error={mount.error ?? secret.error} />
      {secret.isLoading && !secret.data && <Loading />}
      {kv?.version === 2 && version !== undefined && (
        <p class="hint">
          Version {version}
          {version === metadata?.current_version ? ' (current)' : ''}
          {versionInfo?.destroyed ? ': destroyed' : versionInfo?.deletion_time ? ': deleted' : ''}
        </p>
      )}
      {secret.data && !data && !secret.error && (
        <p>{metadata ? 'This version has no data: it was deleted or destroyed.' : 'No secret at this path.'}</p>
      )}
      {data && (
        <DataTable
          label={`Keys of ${path}`}
          rows={Object.entries(data)}
          keyOf={([k]) => k}
          columns={[
            { header: 'Key', cell: ([k]) => k, class: 'code', isRowHeader: true },
            {
              header: 'Value',
              cell: ([k, v]) => <MaskedValue name={k} value={typeof v === 'string' ? v : JSON.stringify(v)} />,
            },
          ]}
        />
      )}
      {kv && metadata && (
        <KvVersions kv={kv} path={path} metadata={metadata} shown={version} onChange={secret.reload} />
      )}
      {metadata && <MetadataFacts metadata={metadata} to={`${base}/metadata/${encodePath(path)}`} />}
    </Page>
  );
}

function SecretActions(p: { kv: KvMount; base: string; path: string; metadata?: KvMetadata; hasData: boolean }) {
  const { router } = useApp();
  const dataPath = `${p.kv.path}${p.kv.version === 2 ? 'data/' : ''}${p.path}`;
  const allPath = `${p.kv.path}${p.kv.version === 2 ? 'metadata/' : ''}${p.path}`;
  const caps = useCapabilities([dataPath, allPath]);
  const remove = useAction(async () => {
    await p.kv.deleteAll(p.path);
    const folder = p.path.includes('/') ? p.path.slice(0, p.path.lastIndexOf('/') + 1) : '';
    router.navigate(`${p.base}/kv/${encodePath(folder)}`);
  });
  const canWrite = caps.allows(dataPath, ['create', 'update']);
  return (
    <>
      {canWrite && (
        <Link to={`${p.base}/edit/${encodePath(p.path)}`} class="button">
          {p.kv.version === 2 ? 'Create new version' : 'Edit secret'}
        </Link>
      )}
      {canWrite && p.kv.version === 2 && p.hasData && (
        <Link to={`${p.base}/edit/${encodePath(p.path)}?patch=1`} class="button secondary">
          Patch
        </Link>
      )}
      {caps.allows(allPath, 'delete') && (
        <ConfirmButton
          label={p.kv.version === 2 ? 'Delete secret and all versions' : 'Delete secret'}
          question={`Delete ${p.path}${p.kv.version === 2 ? ' with every version and its metadata' : ''}?`}
          confirmLabel="Delete for good"
          onConfirm={() => remove.run()}
        />
      )}
      <ErrorMessage error={remove.error} />
    </>
  );
}

function MetadataFacts({ metadata, to }: { metadata: KvMetadata; to: string }) {
  const custom = Object.entries(metadata.custom_metadata ?? {});
  return (
    <section aria-labelledby="metadata-heading">
      <div class="page-head">
        <h2 id="metadata-heading">Metadata</h2>
        <Link to={to} class="button secondary">
          Edit metadata
        </Link>
      </div>
      <dl class="facts">
        <dt>Maximum versions</dt>
        <dd>{metadata.max_versions === 0 ? 'the engine’s setting' : metadata.max_versions}</dd>
        <dt>Check-and-set required</dt>
        <dd>{metadata.cas_required ? 'yes' : 'no'}</dd>
        <dt>Delete versions after</dt>
        <dd>{metadata.delete_version_after === '0s' ? 'never' : metadata.delete_version_after}</dd>
        <dt>Created</dt>
        <dd>{formatTime(metadata.created_time)}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(metadata.updated_time)}</dd>
        {custom.map(([k, v]) => (
          <Fragment key={k}>
            <dt class="code">{k}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
