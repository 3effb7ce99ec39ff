import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { Field } from '../../components/field.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { LdapTabs } from './ldap-tabs.js';

/**
 * An LDAP engine's home (`ldap` and `openldap`): its static roles (each a link to its
 * credentials) with a form that creates one, and its dynamic roles; the Library tab (`ldap-library.tsx`)
 * has its sets of accounts to check out.
 */
export function LdapRoles({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const statics = useLoad(() => api.list(`${mount}/static-role`), [mount]);
  const dynamics = useLoad(() => api.list(`${mount}/role`), [mount]);
  const [name, setName] = useState('');
  const [dn, setDn] = useState('');
  const [username, setUsername] = useState('');
  const [period, setPeriod] = useState('24h');
  const create = useAction(async () => {
    const role = name.trim();
    const body: Record<string, string> = { username: username.trim(), rotation_period: period };
    if (dn.trim()) body.dn = dn.trim();
    await api.write(`${mount}/static-role/${role}`, body);
    router.navigate(pathOf('secrets', mount, 'ldap', 'static', role));
  });
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <LdapTabs mount={mount} current="roles" />
      <h2>Static roles</h2>
      <NamedList
        list={statics}
        empty="No static roles yet."
        hrefOf={(r) => pathOf('secrets', mount, 'ldap', 'static', r)}
      />
      <h2>Create static role</h2>
      <ActionForm action={create} submitLabel="Create static role">
        <Field label="Role name" value={name} onInput={setName} isCode required />
        <Field label="Username" value={username} onInput={setUsername} isCode required />
        <Field
          label="DN"
          value={dn}
          onInput={setDn}
          isCode
          hint="The entry's distinguished name; empty: found by username."
        />
        <Field label="Rotation period" value={period} onInput={setPeriod} isCode />
      </ActionForm>
      <h2>Dynamic roles</h2>
      <NamedList
        list={dynamics}
        empty="No dynamic roles yet."
        hrefOf={(r) => pathOf('secrets', mount, 'ldap', 'dynamic', r)}
      />
    </Page>
  );
}
