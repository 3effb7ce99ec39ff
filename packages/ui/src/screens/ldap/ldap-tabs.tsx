import './ldap.css';
import { Link } from '../../components/link.js';
import { pathOf } from '../../router/match.js';

/** The sections of an LDAP engine: its roles and its library of accounts to check out. */
export function LdapTabs({ mount, current }: { mount: string; current: 'roles' | 'library' }) {
  const tabs = [
    { id: 'roles', label: 'Roles', to: pathOf('secrets', mount, 'ldap') },
    { id: 'library', label: 'Library', to: pathOf('secrets', mount, 'ldap', 'library') },
  ] as const;
  return (
    <nav class="ldap-tabs" aria-label="LDAP engine sections">
      <ul>
        {tabs.map((t) => (
          <li key={t.id}>
            <Link to={t.to} aria-current={t.id === current ? 'page' : undefined}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
