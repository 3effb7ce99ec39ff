import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
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
      <ErrorMessage error={connections.error} />
      {connections.isLoading && !connections.data && <Loading />}
      {connections.data && connections.data.length === 0 && (
        <p>No connections yet: write one to config/&lt;name&gt; (plugin, URL, credentials).</p>
      )}
      {connections.data && connections.data.length > 0 && (
        <ul class="list">
          {connections.data.map((c) => (
            <li key={c}>
              <Link to={pathOf('secrets', mount, 'database', 'connections', c)} class="code">
                {c}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
