import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { authMounts } from './auth-methods.js';

export interface GroupAlias {
  id?: string;
  name?: string;
  mount_accessor?: string;
  mount_path?: string;
}

/**
 * An external group's alias: the group's name on one auth method (an LDAP group, an OIDC claim value),
 * through which its members come (`identity/group-alias`).
 */
export function GroupAliasSection({ groupId, alias, onDone }: { groupId: string; alias?: GroupAlias; onDone(): void }) {
  const { api } = useApp();
  const mounts = useLoad(() => authMounts(api), []);
  const caps = useCapabilities(['identity/group-alias', `identity/group-alias/id/${alias?.id ?? 'example'}`]);
  const remove = useAction(async () => {
    await api.delete(`identity/group-alias/id/${alias?.id}`);
    onDone();
  });
  const [accessor, setAccessor] = useState('');
  const [name, setName] = useState('');
  const options = (mounts.data ?? []).map((m) => [m.accessor, `${m.path} (${m.type})`] as const);
  const chosen = accessor || alias?.mount_accessor || options[0]?.[0] || '';
  const save = useAction(async () => {
    const body: Record<string, unknown> = { name: name.trim(), mount_accessor: chosen, canonical_id: groupId };
    if (alias?.id) await api.write(`identity/group-alias/id/${alias.id}`, body);
    else await api.write('identity/group-alias', body);
    setName('');
    onDone();
  });
  return (
    <section aria-labelledby="group-alias">
      <h2 id="group-alias">Group alias</h2>
      {alias?.id ? (
        <div class="actions">
          <p>
            <span class="code">{alias.name}</span> on{' '}
            <span class="code">{alias.mount_path || alias.mount_accessor}</span>
          </p>
          {caps.allows(`identity/group-alias/id/${alias.id}`, 'delete') && (
            <ConfirmButton
              label="Delete alias"
              question={`Delete the alias ${alias.name}? The group then has no members from the method.`}
              confirmLabel="Delete alias now"
              disabled={remove.isPending}
              onConfirm={() => remove.run()}
            />
          )}
        </div>
      ) : (
        <p>No alias yet: the group has no members until one names it on an auth method.</p>
      )}
      <ErrorMessage error={remove.error ?? mounts.error} />
      {caps.allows('identity/group-alias', ['create', 'update']) && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            save.run();
          }}
        >
          <SelectField label="Alias auth method" value={chosen} options={options} onChange={setAccessor} />
          <Field
            label="Group name on the method"
            value={name}
            onInput={setName}
            hint="Such as the LDAP group's name."
            isCode
            required
          />
          <ErrorMessage error={save.error} />
          <div class="actions">
            <button type="submit" disabled={save.isPending}>
              {alias?.id ? 'Change alias' : 'Set alias'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
