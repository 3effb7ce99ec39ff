import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DeletableList } from '../../components/deletable-list.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ItemCollection, MethodKind } from './method-kinds.js';

/** On an auth method's screen: a link to its configuration, and its roles or mappings (each a link, deletable). */
export function AuthMethodSettings({ mount, kind }: { mount: string; kind: MethodKind }) {
  const config = kind.configPath && `auth/${mount}/${kind.configPath}`;
  const caps = useCapabilities(config ? [config] : []);
  return (
    <>
      {config && caps.allows(config, ['read', 'create', 'update']) && (
        <section aria-labelledby="config-heading">
          <h2 id="config-heading">Configuration</h2>
          <p>
            <Link to={pathOf('access', 'auth-config', mount)}>Configure {mount}/</Link> (
            <span class="code">{config}</span>)
          </p>
        </section>
      )}
      {kind.collections.map((c) => (
        <Collection key={c.path} mount={mount} collection={c} />
      ))}
    </>
  );
}

/** One collection's items (`auth/<mount>/<path>/`), shown when the token may list them. */
function Collection({ mount, collection: c }: { mount: string; collection: ItemCollection }) {
  const { api } = useApp();
  const base = `auth/${mount}/${c.path}`;
  const items = useLoad(() => api.list(base), [base]);
  const caps = useCapabilities([`${base}/`, `${base}/example`]);
  if (!caps.allows(`${base}/`, 'list')) return null;
  const headingId = `items-${c.path.replace(/\W/g, '-')}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{c.title}</h2>
      <ErrorMessage error={items.error} />
      {items.data?.length === 0 && <p>No {c.noun}s yet.</p>}
      {items.data && items.data.length > 0 && (
        <DeletableList
          label={c.title}
          noun={c.noun}
          items={items.data}
          canDelete={caps.allows(`${base}/example`, 'delete')}
          render={(name) => <Link to={pathOf('access', 'auth-item', mount, c.path, name)}>{name}</Link>}
          onDelete={async (name) => {
            await api.delete(`${base}/${name}`);
            items.reload();
          }}
        />
      )}
      {caps.allows(`${base}/example`, ['create', 'update']) && (
        <p>
          <Link to={pathOf('access', 'auth-item', mount, c.path)}>Create {c.noun}</Link>
        </p>
      )}
    </section>
  );
}
