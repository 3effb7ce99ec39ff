import { useLayoutEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';

interface KvConfig {
  max_versions: number;
  cas_required: boolean;
  delete_version_after: string;
}

/** A KV v2 engine's own settings (`<mount>/config`): the defaults every secret in it has. */
export function KvEngineConfig({ mount }: { mount: string }) {
  const { api } = useApp();
  const config = useLoad(() => api.read<KvConfig>(`${mount}config`), [mount]);
  const [maxVersions, setMaxVersions] = useState('');
  const [casRequired, setCasRequired] = useState(false);
  const [deleteAfter, setDeleteAfter] = useState('');
  const [saved, setSaved] = useState(false);
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    const c = config.data;
    if (!c) return;
    setMaxVersions(String(c.max_versions));
    setCasRequired(c.cas_required);
    setDeleteAfter(c.delete_version_after);
  }, [config.data]);
  const save = useAction(async () => {
    setSaved(false);
    await api.write(`${mount}config`, {
      max_versions: Number(maxVersions),
      cas_required: casRequired,
      delete_version_after: deleteAfter,
    });
    setSaved(true);
  });
  return (
    <section aria-labelledby="kv-config-heading">
      <h2 id="kv-config-heading">KV settings</h2>
      <ErrorMessage error={config.error} />
      {config.data && (
        <ActionForm action={save} submitLabel="Save KV settings" class="form">
          <Field
            label="Versions kept per secret"
            type="number"
            inputMode="numeric"
            value={maxVersions}
            onInput={setMaxVersions}
            hint="0: 10, the default."
          />
          <CheckboxField label="Every write needs check-and-set" checked={casRequired} onChange={setCasRequired} />
          <Field
            label="Delete each version after"
            value={deleteAfter}
            onInput={setDeleteAfter}
            hint="A duration such as 720h; 0s: never."
            isCode
          />
          {saved && <output>KV settings saved.</output>}
        </ActionForm>
      )}
    </section>
  );
}
