import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { DeletableList } from '../../components/deletable-list.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { splitList } from './access-shared.js';

/** A userpass mount's users (each deletable) and a form to create one (`auth/<mount>/users/<name>`). */
export function UserpassUsers({ mount }: { mount: string }) {
  const { api } = useApp();
  const users = useLoad(() => api.list(`auth/${mount}/users`), [mount]);
  const caps = useCapabilities([`auth/${mount}/users/example`]);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [policies, setPolicies] = useState('');
  const create = useAction(async () => {
    await api.write(`auth/${mount}/users/${name.trim()}`, { password, token_policies: splitList(policies) });
    setName('');
    setPassword('');
    setPolicies('');
    users.reload();
  });
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <ErrorMessage error={users.error} />
      {users.data && users.data.length === 0 && <p>No users yet.</p>}
      {users.data && users.data.length > 0 && (
        <DeletableList
          label="Users"
          noun="user"
          items={users.data}
          canDelete={caps.allows(`auth/${mount}/users/example`, 'delete')}
          onDelete={async (u) => {
            await api.delete(`auth/${mount}/users/${u}`);
            users.reload();
          }}
        />
      )}
      {caps.allows(`auth/${mount}/users/example`, ['create', 'update']) && (
        <ActionForm action={create} submitLabel="Create user" class="form">
          <h3>Create user</h3>
          <Field label="Username" value={name} onInput={setName} isCode required />
          <Field label="Password" type="password" value={password} onInput={setPassword} required />
          <Field label="Policies" value={policies} onInput={setPolicies} hint="Comma-separated: default, dev." isCode />
        </ActionForm>
      )}
    </section>
  );
}

/** An AppRole mount's roles (each a link to its secret IDs, deletable) and a form to create one (`auth/<mount>/role/<name>`). */
export function AppRoleRoles({ mount }: { mount: string }) {
  const { api } = useApp();
  const roles = useLoad(() => api.list(`auth/${mount}/role`), [mount]);
  const caps = useCapabilities([`auth/${mount}/role/example`]);
  const [name, setName] = useState('');
  const [policies, setPolicies] = useState('');
  const [ttl, setTtl] = useState('');
  const create = useAction(async () => {
    const body: Record<string, unknown> = { token_policies: splitList(policies) };
    if (ttl) body.token_ttl = ttl;
    await api.write(`auth/${mount}/role/${name.trim()}`, body);
    setName('');
    roles.reload();
  });
  return (
    <section aria-labelledby="roles-heading">
      <h2 id="roles-heading">Roles</h2>
      <ErrorMessage error={roles.error} />
      {roles.data && roles.data.length === 0 && <p>No roles yet.</p>}
      {roles.data && roles.data.length > 0 && (
        <DeletableList
          label="Roles"
          noun="role"
          items={roles.data}
          canDelete={caps.allows(`auth/${mount}/role/example`, 'delete')}
          render={(r) => <Link to={pathOf('access', 'approle', mount, r)}>{r}</Link>}
          onDelete={async (r) => {
            await api.delete(`auth/${mount}/role/${r}`);
            roles.reload();
          }}
        />
      )}
      {caps.allows(`auth/${mount}/role/example`, ['create', 'update']) && (
        <ActionForm action={create} submitLabel="Create role" class="form">
          <h3>Create role</h3>
          <Field label="Role name" value={name} onInput={setName} isCode required />
          <Field label="Token policies" value={policies} onInput={setPolicies} hint="Comma-separated." isCode />
          <Field label="Token TTL" value={ttl} onInput={setTtl} hint="Such as 1h; empty: the mount's." isCode />
        </ActionForm>
      )}
    </section>
  );
}
