import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { CheckboxField, Field, SelectField } from '../../components/field.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { splitList } from './access-shared.js';
import { identityList } from './identity-list.js';

export interface GroupInfo {
  id: string;
  name: string;
  type: 'internal' | 'external';
  policies: string[] | null;
  member_entity_ids: string[] | null;
  member_group_ids: string[] | null;
  parent_group_ids?: string[] | null;
}

const TYPES = [
  ['internal', 'Internal (members chosen here)'],
  ['external', 'External (members from an auth method)'],
] as const;

/**
 * A group's name, type, policies and member entities, written to `identity/group` (create) or
 * `identity/group/id/<id>` (edit); `onSaved` gets the group's id.
 */
export function GroupForm({ group, onSaved }: { group?: GroupInfo; onSaved(id: string): void }) {
  const { api } = useApp();
  const entities = useLoad(() => identityList(api, 'entity'), []);
  const [name, setName] = useState(group?.name ?? '');
  const [type, setType] = useState<string>(group?.type ?? 'internal');
  const [policies, setPolicies] = useState((group?.policies ?? []).join(', '));
  const [members, setMembers] = useState<ReadonlySet<string>>(new Set(group?.member_entity_ids ?? []));
  const save = useAction(async () => {
    const body: Record<string, unknown> = { name: name.trim(), policies: splitList(policies) };
    if (!group) body.type = type;
    if (type === 'internal') body.member_entity_ids = [...members];
    const res = await api.write<{ id: string }>(group ? `identity/group/id/${group.id}` : 'identity/group', body);
    onSaved(res?.data?.id ?? group?.id ?? '');
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(members);
    if (on) next.add(id);
    else next.delete(id);
    setMembers(next);
  };
  return (
    <form
      class="form"
      onSubmit={(e) => {
        e.preventDefault();
        save.run();
      }}
    >
      <Field label="Group name" value={name} onInput={setName} hint="Empty: a generated name." />
      {!group && <SelectField label="Group type" value={type} options={TYPES} onChange={setType} />}
      <Field label="Policies" value={policies} onInput={setPolicies} hint="Comma-separated." isCode />
      {type === 'internal' && (
        <fieldset>
          <legend>Member entities</legend>
          <ErrorMessage error={entities.error} />
          {entities.data?.length === 0 && <p>No entities yet.</p>}
          {(entities.data ?? []).map((e) => (
            <CheckboxField key={e.id} label={e.name} checked={members.has(e.id)} onChange={(on) => toggle(e.id, on)} />
          ))}
        </fieldset>
      )}
      <ErrorMessage error={save.error} />
      <div class="actions">
        <button type="submit" disabled={save.isPending}>
          {group ? 'Save group' : 'Create group'}
        </button>
      </div>
    </form>
  );
}
