import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field, SelectField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS, trimSlashes } from './access-shared.js';

/** The auth method types Ward has (the token method is always there and cannot be enabled again). */
const TYPES: readonly (readonly [string, string])[] = [
  ['userpass', 'Username & password'],
  ['approle', 'AppRole'],
  ['ldap', 'LDAP'],
  ['oidc', 'OIDC'],
  ['jwt', 'JWT'],
  ['kubernetes', 'Kubernetes'],
  ['cert', 'TLS certificates'],
  ['github', 'GitHub'],
  ['aws', 'AWS'],
  ['azure', 'Azure'],
  ['gcp', 'Google Cloud'],
];

/** Enable an auth method at a path (`sys/auth/<path>`). */
export function AuthEnable() {
  const { api, router } = useApp();
  const [type, setType] = useState('userpass');
  const [path, setPath] = useState('');
  const [description, setDescription] = useState('');
  const enable = useAction(async () => {
    const mount = trimSlashes(path.trim() || type);
    await api.write(`sys/auth/${mount}`, { type, description });
    router.navigate(pathOf('access', 'auth', mount));
  });
  return (
    <Page title="Enable an auth method" crumbs={[...ACCESS_CRUMBS, { label: 'Auth methods', to: '/access/auth' }]}>
      <ActionForm action={enable} submitLabel="Enable method" class="form">
        <SelectField label="Type" value={type} options={TYPES} onChange={setType} />
        <Field label="Path" value={path} onInput={setPath} hint={`Where to enable it; empty: ${type}.`} isCode />
        <Field label="Description" value={description} onInput={setDescription} />
      </ActionForm>
    </Page>
  );
}
