import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field, SelectField } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { KEY_PARAMS, MANAGED_KEY_TYPES } from './managed-key-fields.js';

/** Managed keys of one backend type (`sys/managed-keys/<type>`) and a form to configure one. */
export function ManagedKeys({ params }: ScreenProps) {
  const { api, router } = useApp();
  const type = params.type ?? 'pkcs11';
  const keys = useLoad(() => api.list(`sys/managed-keys/${type}`), [type]);
  const caps = useCapabilities([`sys/managed-keys/${type}/example`]);
  return (
    <Page title="Managed keys" crumbs={ACCESS_CRUMBS}>
      <SelectField
        label="Backend type"
        value={type}
        options={MANAGED_KEY_TYPES}
        onChange={(t) => router.navigate(pathOf('access', 'managed-keys', t))}
      />
      <ErrorMessage error={keys.error} />
      {keys.isLoading && !keys.data && <Loading />}
      {keys.data && keys.data.length === 0 && <p>No {type} managed keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <ul class="list" aria-label={`${type} managed keys`}>
          {keys.data.map((k) => (
            <li key={k}>
              <Link to={pathOf('access', 'managed-keys', type, k)} class="code">
                {k}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {caps.allows(`sys/managed-keys/${type}/example`, ['create', 'update', 'sudo']) && (
        <CreateKey
          key={type}
          type={type}
          onCreated={(name) => router.navigate(pathOf('access', 'managed-keys', type, name))}
        />
      )}
    </Page>
  );
}

function CreateKey({ type, onCreated }: { type: string; onCreated(name: string): void }) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [generate, setGenerate] = useState(false);
  const [anyMount, setAnyMount] = useState(false);
  const create = useAction(async () => {
    const body: Record<string, unknown> = { allow_generate_key: generate, any_mount: anyMount };
    for (const [k, v] of Object.entries(values)) if (v.trim()) body[k] = v.trim();
    await api.write(`sys/managed-keys/${type}/${name.trim()}`, body);
    onCreated(name.trim());
  });
  return (
    <section aria-labelledby="create-key">
      <h2 id="create-key">Configure a {type} key</h2>
      <ActionForm action={create} submitLabel="Save key" class="form">
        <Field
          label="Key name"
          value={name}
          onInput={setName}
          hint="Lower case; unique across types."
          isCode
          required
        />
        {(KEY_PARAMS[type] ?? []).map((p) => (
          <Field
            key={p.name}
            label={p.label}
            type={p.isSecret ? 'password' : 'text'}
            value={values[p.name] ?? ''}
            onInput={(v) => setValues({ ...values, [p.name]: v })}
            hint={p.hint}
            isCode={!p.isSecret}
          />
        ))}
        <CheckboxField
          label="Allow generating the key"
          checked={generate}
          onChange={setGenerate}
          hint="Generate it in the backend when none is found."
        />
        <CheckboxField
          label="Usable by any mount"
          checked={anyMount}
          onChange={setAnyMount}
          hint="Otherwise a mount must list it in allowed_managed_keys."
        />
      </ActionForm>
    </section>
  );
}
