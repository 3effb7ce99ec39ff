import { Link } from '../../components/link.js';
import { Page } from '../../components/page.js';

const SECTIONS: readonly (readonly [to: string, label: string, about: string])[] = [
  ['/access/auth', 'Auth methods', 'Enable, tune and disable auth methods; userpass users and AppRole roles.'],
  ['/access/entities', 'Entities', 'Identities across auth methods: aliases, policies, metadata; merge two into one.'],
  ['/access/groups', 'Groups', 'Internal and external groups, their member entities and policies.'],
  ['/access/leases', 'Leases', 'Look up, renew and revoke leases, or revoke every lease under a prefix.'],
  ['/access/namespaces', 'Namespaces', 'Create and delete the namespaces under this one.'],
  ['/access/managed-keys/pkcs11', 'Managed keys', 'Keys held in an HSM or a cloud key service; test that one signs.'],
  [
    '/access/snapshots',
    'Automated snapshots',
    'Snapshots of the store taken on a schedule, and how the last one went.',
  ],
];

/** The Access section: one link per screen of it. */
export function AccessIndex() {
  return (
    <Page title="Access">
      <ul class="cards">
        {SECTIONS.map(([to, label, about]) => (
          <li key={to}>
            <Link to={to}>{label}</Link>
            <p>{about}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
