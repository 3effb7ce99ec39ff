import { useApp } from '../../app-context.js';
import { Link } from '../../components/link.js';
import { NamedList } from '../../components/named-list.js';
import { Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';

/** A database engine's home: its connections (each a link to its settings) and links to its roles. */
export function DbConnections({ params }: ScreenProps) {
  const { api } = useApp();
  const mount = params.mount ?? '';
  const connections = useLoad(() => api.list(`${mount}/config`), [mount]);
  return (
    <Page title={`${mount}/`} crumbs={[{ label: 'Secrets', to: '/secrets' }]}>
      <ul class="list">
        <li>
          <Link to={pathOf('secrets', mount, 'database', 'roles')}>Roles</Link>
        </li>
        <li>
          <Link to={pathOf('secrets', mount, 'database', 'static-roles')}>Static roles</Link>
        </li>
      </ul>
      <h2>Connections</h2>
      <NamedList
        list={connections}
        empty="No connections yet: write one to config/<name> (plugin, URL, credentials)."
        hrefOf={(c) => pathOf('secrets', mount, 'database', 'connections', c)}
      />
    </Page>
  );
}
