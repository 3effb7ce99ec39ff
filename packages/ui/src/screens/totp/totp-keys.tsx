import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field, SelectField } from '../../components/field.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';

interface Generated {
  barcode?: string;
  url?: string;
}

/**
 * A TOTP engine: its keys (each a link to its current code), and a form that generates a key on
 * the server and shows its QR code once, for an authenticator app to scan.
 */
export function TotpKeys({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const keys = useLoad(() => api.list(`${mount}/keys`), [mount]);
  const [name, setName] = useState('');
  const [issuer, setIssuer] = useState('Ward');
  const [account, setAccount] = useState('');
  const [algorithm, setAlgorithm] = useState('SHA1');
  const [generated, setGenerated] = useState<Generated & { name: string }>();
  const create = useAction(async () => {
    setGenerated(undefined);
    const res = await api.write<Generated>(`${mount}/keys/${name.trim()}`, {
      generate: true,
      issuer,
      account_name: account,
      algorithm,
    });
    setGenerated({ ...res?.data, name: name.trim() });
    keys.reload();
  });
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <h2>Keys</h2>
      <NamedList list={keys} empty="No keys yet." hrefOf={(k) => pathOf('secrets', mount, 'totp', k)} />
      <h2>Create key</h2>
      <ActionForm action={create} submitLabel="Create key">
        <Field label="Key name" value={name} onInput={setName} isCode required />
        <Field label="Issuer" value={issuer} onInput={setIssuer} />
        <Field
          label="Account name"
          value={account}
          onInput={setAccount}
          required
          hint="Shown in the authenticator app."
        />
        <SelectField
          label="Algorithm"
          value={algorithm}
          onChange={setAlgorithm}
          options={[
            ['SHA1', 'SHA1'],
            ['SHA256', 'SHA256'],
            ['SHA512', 'SHA512'],
          ]}
        />
      </ActionForm>
      {generated?.barcode && (
        <section aria-labelledby="qr-title" class="qr">
          <h2 id="qr-title">Scan the QR code of {generated.name}</h2>
          <p>It is shown only now: the server does not give it out again.</p>
          <img src={`data:image/png;base64,${generated.barcode}`} alt={`QR code of the TOTP key ${generated.name}`} />
        </section>
      )}
    </Page>
  );
}
