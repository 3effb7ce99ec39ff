import type { Api } from '../../api/api.js';
import { useApp } from '../../app-context.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { LdapTabs } from './ldap-tabs.js';
import { LibrarySetForm } from './library-set-form.js';

/** Every set name at any depth (LIST `library` gives one level; folders end in `/`). */
async function listSets(api: Api, mount: string, prefix = ''): Promise<string[]> {
  const names: string[] = [];
  for (const key of await api.list(`${mount}/library/${prefix}`)) {
    if (key.endsWith('/')) names.push(...(await listSets(api, mount, prefix + key)));
    else names.push(prefix + key);
  }
  return names;
}

/** An LDAP engine's Library tab: its sets of accounts to check out (each a link) and a form that creates one. */
export function LdapLibrary({ params }: ScreenProps) {
  const { api, router } = useApp();
  const mount = params.mount ?? '';
  const sets = useLoad(() => listSets(api, mount), [mount]);
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <LdapTabs mount={mount} current="library" />
      <h2>Library sets</h2>
      <NamedList
        list={sets}
        empty="No library sets yet."
        hrefOf={(s) => pathOf('secrets', mount, 'ldap', 'library', s)}
      />
      <h2>Create set</h2>
      <LibrarySetForm
        isNew
        submitLabel="Create set"
        onSave={async (name, body) => {
          await api.write(`${mount}/library/${name}`, body);
          router.navigate(pathOf('secrets', mount, 'ldap', 'library', name.toLowerCase()));
        }}
      />
    </Page>
  );
}
