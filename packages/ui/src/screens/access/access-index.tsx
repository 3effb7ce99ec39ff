import { type Capability, useCapabilities } from '../../api/capabilities.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';

interface Section {
  to: string;
  label: string;
  about: string;
  /** Offered when the token may do one of `capabilities` on `path`. */
  path: string;
  capabilities: readonly Capability[];
}

const SECTIONS: readonly Section[] = [
  {
    to: '/access/auth',
    label: 'Auth methods',
    about: 'Enable, tune and disable auth methods; userpass users and AppRole roles.',
    path: 'sys/auth',
    capabilities: ['read', 'sudo'],
  },
  {
    to: '/access/entities',
    label: 'Entities',
    about: 'Identities across auth methods: aliases, policies, metadata; merge two into one.',
    path: 'identity/entity/id',
    capabilities: ['list'],
  },
  {
    to: '/access/groups',
    label: 'Groups',
    about: 'Internal and external groups, their member entities and policies.',
    path: 'identity/group/id',
    capabilities: ['list'],
  },
  {
    to: '/access/leases',
    label: 'Leases',
    about: 'Look up, renew and revoke leases, or revoke every lease under a prefix.',
    path: 'sys/leases/lookup',
    capabilities: ['update', 'sudo'],
  },
  {
    to: '/access/namespaces',
    label: 'Namespaces',
    about: 'Create and delete the namespaces under this one.',
    path: 'sys/namespaces',
    capabilities: ['list'],
  },
  {
    to: '/access/managed-keys/pkcs11',
    label: 'Managed keys',
    about: 'Keys held in an HSM or a cloud key service; test that one signs.',
    path: 'sys/managed-keys/pkcs11',
    capabilities: ['list'],
  },
  {
    to: '/access/snapshots',
    label: 'Automated snapshots',
    about: 'Snapshots of the store taken on a schedule, and how the last one went.',
    path: 'sys/storage/raft/snapshot-auto/config',
    capabilities: ['list', 'sudo'],
  },
];

/** The Access section: one link per screen of it the token may use (the server still decides). */
export function AccessIndex() {
  const caps = useCapabilities(SECTIONS.map((s) => s.path));
  const shown = SECTIONS.filter((s) => caps.allows(s.path, s.capabilities));
  return (
    <Page title="Access">
      {!caps.isLoaded && <Loading />}
      {caps.isLoaded && shown.length === 0 && <p>This token may use none of the Access screens.</p>}
      <ul class="cards">
        {shown.map((s) => (
          <li key={s.to}>
            <Link to={s.to}>{s.label}</Link>
            <p>{s.about}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
