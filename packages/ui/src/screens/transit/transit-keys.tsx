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

export const TRANSIT_KEY_TYPES = [
  'aes256-gcm96',
  'aes128-gcm96',
  'chacha20-poly1305',
  'ed25519',
  'ecdsa-p256',
  'ecdsa-p384',
  'ecdsa-p521',
  'rsa-2048',
  'rsa-3072',
  'rsa-4096',
  'hmac',
] as const;

/** A transit engine: its keys, and a form to create one. */
export function TransitKeys({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const keys = useLoad(() => api.list(`${mount}/keys`), [mount]);
  const [name, setName] = useState('');
  const [type, setType] = useState<string>('aes256-gcm96');
  const create = useAction(async () => {
    await api.write(`${mount}/keys/${name.trim()}`, { type });
    router.navigate(pathOf('secrets', mount, 'transit', name.trim()));
  });
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <h2>Encryption keys</h2>
      <NamedList list={keys} empty="No keys yet." hrefOf={(k) => pathOf('secrets', mount, 'transit', k)} />
      <h2>Create encryption key</h2>
      <ActionForm action={create} submitLabel="Create key">
        <Field label="Key name" value={name} onInput={setName} isCode required />
        <SelectField
          label="Key type"
          value={type}
          onChange={setType}
          options={TRANSIT_KEY_TYPES.map((t) => [t, t] as const)}
        />
      </ActionForm>
    </Page>
  );
}
