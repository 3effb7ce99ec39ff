import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, SelectField } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { CredentialFacts } from '../credentials.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { HASH_ALGORITHMS } from './managed-key-fields.js';

/** One managed key: its parameters (secrets redacted by the server), Test sign, delete. */
export function ManagedKey({ params }: ScreenProps) {
  const { api, router } = useApp();
  const type = params.type ?? '';
  const name = params.name ?? '';
  const base = `sys/managed-keys/${type}/${name}`;
  const key = useLoad(() => api.read<Record<string, unknown>>(base), [base]);
  const caps = useCapabilities([base, `${base}/test/sign`]);
  const [hash, setHash] = useState<string>('sha2-256');
  const [pss, setPss] = useState(false);
  const [signed, setSigned] = useState('');
  const testSign = useAction(async () => {
    setSigned('');
    await api.write(`${base}/test/sign`, { hash_algorithm: hash, use_pss: pss });
    setSigned(`Signed and verified random data with ${name} (${hash}${pss ? ', PSS' : ''}).`);
    key.reload();
  });
  const remove = useAction(async () => {
    await api.delete(base);
    router.navigate(pathOf('access', 'managed-keys', type));
  });
  return (
    <Page
      title={name}
      crumbs={[...ACCESS_CRUMBS, { label: 'Managed keys', to: pathOf('access', 'managed-keys', type) }]}
      actions={
        caps.allows(base, ['delete', 'sudo']) && (
          <ConfirmButton
            label="Delete key"
            question={`Delete the configuration of ${name}? The key itself stays in the backend.`}
            confirmLabel="Delete now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={remove.error ?? key.error} />
      {key.isLoading && !key.data && <Loading />}
      {!key.isLoading && !key.data && !key.error && (
        <p>
          No {type} managed key is named {name}.
        </p>
      )}
      {key.data && <CredentialFacts data={key.data} label="Managed key" isSorted />}
      {key.data && caps.allows(`${base}/test/sign`, ['update', 'sudo']) && (
        <section aria-labelledby="test-sign">
          <h2 id="test-sign">Test the key</h2>
          <ActionForm action={testSign} errorLabel="Test sign failed" submitLabel="Test sign" class="form">
            <SelectField
              label="Hash algorithm"
              value={hash}
              options={HASH_ALGORITHMS.map((h) => [h, h] as const)}
              onChange={setHash}
            />
            <CheckboxField label="RSA PSS signature" checked={pss} onChange={setPss} />
            {signed && <output>{signed}</output>}
          </ActionForm>
        </section>
      )}
    </Page>
  );
}
