import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../screen.js';
import { IssueCredentials } from '../credential-panels.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One LDAP dynamic role: Get credentials (`creds/:name`, a new directory entry with its lease). */
export function LdapDynamicRole({ params }: ScreenProps) {
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'ldap')}>
      <IssueCredentials path={`${mount}/creds/${name}`} />
    </Page>
  );
}
