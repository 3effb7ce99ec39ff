import { Page } from '../../components/page.js';
import type { ScreenProps } from '../../screen.js';
import { StaticCredentials } from '../credential-panels.js';
import { engineCrumbs } from '../engine-crumbs.js';

/** One LDAP static role: its current credentials (`static-cred`, password masked) and Rotate now. */
export function LdapStaticRole({ params }: ScreenProps) {
  const mount = params.mount ?? '';
  const name = params.name ?? '';
  return (
    <Page title={name} crumbs={engineCrumbs(mount, 'ldap')}>
      <StaticCredentials
        credsPath={`${mount}/static-cred/${name}`}
        rotatePath={`${mount}/rotate-role/${name}`}
        question={`Rotate ${name}'s password in the directory now?`}
      />
    </Page>
  );
}
