import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { CheckboxField, Field, SelectField } from '../../components/field.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { engineCrumbs } from '../engine-crumbs.js';
import { KEY_TYPES } from './pki-key-types.js';

/** A PKI engine's roles (each a link to its issue form) and a form that creates one. */
export function PkiRoles({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const roles = useLoad(() => api.list(`${mount}/roles`), [mount]);
  const [name, setName] = useState('');
  const [domains, setDomains] = useState('');
  const [subdomains, setSubdomains] = useState(true);
  const [maxTtl, setMaxTtl] = useState('72h');
  const [keyType, setKeyType] = useState('rsa');
  const create = useAction(async () => {
    const role = name.trim();
    await api.write(`${mount}/roles/${role}`, {
      allowed_domains: domains
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
      allow_subdomains: subdomains,
      max_ttl: maxTtl,
      key_type: keyType,
    });
    router.navigate(pathOf('secrets', mount, 'pki', 'roles', role));
  });
  return (
    <Page title="Roles" crumbs={engineCrumbs(mount, 'pki')}>
      <NamedList list={roles} empty="No roles yet." hrefOf={(r) => pathOf('secrets', mount, 'pki', 'roles', r)} />
      <h2>Create role</h2>
      <ActionForm action={create} submitLabel="Create role">
        <Field label="Role name" value={name} onInput={setName} isCode required />
        <Field
          label="Allowed domains"
          value={domains}
          onInput={setDomains}
          isCode
          hint="Comma-separated: example.com, internal.test."
        />
        <CheckboxField label="Allow subdomains" checked={subdomains} onChange={setSubdomains} />
        <Field label="Maximum TTL" value={maxTtl} onInput={setMaxTtl} isCode />
        <SelectField label="Key type" value={keyType} onChange={setKeyType} options={KEY_TYPES} />
      </ActionForm>
    </Page>
  );
}
