import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField, TextAreaField } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS, parsePairs } from './access-shared.js';

export const SNAPSHOT_CONFIG = 'sys/storage/raft/snapshot-auto/config';

const STORAGE_TYPES = [
  ['local', 'Local directory'],
  ['alpha-s3', 'Amazon S3'],
  ['beta-blob', 'Azure Blob Storage'],
  ['gamma-gcs', 'Google Cloud Storage'],
] as const;

/** Automated snapshot configurations (sudo) and a form to add one. */
export function SnapshotsAuto() {
  const { api, router } = useApp();
  const configs = useLoad(() => api.list(SNAPSHOT_CONFIG), []);
  const caps = useCapabilities([`${SNAPSHOT_CONFIG}/example`]);
  const [name, setName] = useState('');
  const [interval, setInterval] = useState('24h');
  const [retain, setRetain] = useState('1');
  const [storage, setStorage] = useState('local');
  const [pathPrefix, setPathPrefix] = useState('');
  const [filePrefix, setFilePrefix] = useState('');
  const [maxSpace, setMaxSpace] = useState('');
  const [extra, setExtra] = useState('');
  const create = useAction(async () => {
    const body: Record<string, unknown> = {
      interval,
      retain: Number(retain),
      storage_type: storage,
      path_prefix: pathPrefix,
      ...parsePairs(extra),
    };
    if (filePrefix) body.file_prefix = filePrefix;
    if (storage === 'local') body.local_max_space = Number(maxSpace);
    await api.write(`${SNAPSHOT_CONFIG}/${name.trim()}`, body);
    router.navigate(pathOf('access', 'snapshots', name.trim()));
  });
  return (
    <Page title="Automated snapshots" crumbs={ACCESS_CRUMBS}>
      <ErrorMessage error={configs.error} />
      {configs.isLoading && !configs.data && <Loading />}
      {configs.data && configs.data.length === 0 && <p>No automated snapshots are configured.</p>}
      {configs.data && configs.data.length > 0 && (
        <ul class="list" aria-label="Snapshot configurations">
          {configs.data.map((c) => (
            <li key={c}>
              <Link to={pathOf('access', 'snapshots', c)} class="code">
                {c}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {caps.allows(`${SNAPSHOT_CONFIG}/example`, ['sudo']) && (
        <section aria-labelledby="create-snapshot">
          <h2 id="create-snapshot">Add a configuration</h2>
          <ActionForm action={create} submitLabel="Save configuration" class="form">
            <Field label="Configuration name" value={name} onInput={setName} isCode required />
            <Field label="Interval" value={interval} onInput={setInterval} hint="Seconds or a duration (24h)." isCode />
            <Field
              label="Snapshots kept"
              value={retain}
              onInput={setRetain}
              inputMode="numeric"
              hint="The oldest go first."
            />
            <SelectField label="Storage type" value={storage} options={STORAGE_TYPES} onChange={setStorage} />
            <Field
              label="Path prefix"
              value={pathPrefix}
              onInput={setPathPrefix}
              hint={storage === 'local' ? 'The directory.' : 'The prefix in the bucket (Blob and GCS: ends with /).'}
              isCode
              required
            />
            <Field
              label="File prefix"
              value={filePrefix}
              onInput={setFilePrefix}
              hint="Empty: vault-snapshot."
              isCode
            />
            {storage === 'local' ? (
              <Field
                label="Space allowed (bytes)"
                value={maxSpace}
                onInput={setMaxSpace}
                inputMode="numeric"
                hint="Snapshots fail once they would use more."
                required
              />
            ) : (
              <TextAreaField
                label="Storage settings"
                value={extra}
                onInput={setExtra}
                rows={4}
                hint={`One key=value a line, such as ${storage === 'alpha-s3' ? 'alpha_s3_bucket=backups' : storage === 'beta-blob' ? 'beta_container_name=backups' : 'gamma_gcs_bucket=backups'}.`}
              />
            )}
          </ActionForm>
        </section>
      )}
    </Page>
  );
}
