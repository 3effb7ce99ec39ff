import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { DeletableList } from '../../components/deletable-list.js';
import { ErrorMessage } from '../../components/error-message.js';
import { SelectField } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { GroupInfo } from './group-form.js';
import { identityList } from './identity-list.js';

/**
 * Nested groups: the groups in this one (their members get its policies), each removable, one added
 * from the other groups; and the groups this one is in (`parent_group_ids`, read only: a parent is
 * changed on the parent). The server refuses a cycle, and the refusal is shown in place.
 */
export function GroupMembers({ group, onDone }: { group: GroupInfo; onDone(): void }) {
  const { api } = useApp();
  const groups = useLoad(() => identityList(api, 'group'), []);
  const caps = useCapabilities([`identity/group/id/${group.id}`]);
  const [chosen, setChosen] = useState('');
  const members = group.member_group_ids ?? [];
  const parents = group.parent_group_ids ?? [];
  const names = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  const nameOf = (id: string) => names.get(id) || id;
  const write = (ids: string[]) => api.write(`identity/group/id/${group.id}`, { member_group_ids: ids });
  const candidates = (groups.data ?? [])
    .filter((g) => g.id !== group.id && !members.includes(g.id))
    .map((g) => [g.id, g.name] as const);
  const pick = chosen || candidates[0]?.[0] || '';
  const add = useAction(async () => {
    await write([...members, pick]);
    setChosen('');
    onDone();
  });
  const canEdit = caps.allows(`identity/group/id/${group.id}`, 'update');
  const groupLink = (id: string) => <Link to={pathOf('access', 'groups', id)}>{nameOf(id)}</Link>;
  return (
    <section aria-labelledby="member-groups">
      <h2 id="member-groups">Member groups</h2>
      <ErrorMessage error={groups.error} />
      {members.length === 0 ? (
        <p>No member groups.</p>
      ) : (
        <DeletableList
          label="Member groups"
          noun="member group"
          verb="Remove"
          items={members}
          canDelete={canEdit}
          nameOf={nameOf}
          render={groupLink}
          onDelete={async (removed) => {
            await write(members.filter((id) => id !== removed));
            onDone();
          }}
        />
      )}
      {canEdit && candidates.length > 0 && (
        <ActionForm action={add} submitLabel="Add member group" class="form">
          <SelectField label="Group to add" value={pick} options={candidates} onChange={setChosen} />
        </ActionForm>
      )}
      <h3>Parent groups</h3>
      {parents.length === 0 ? (
        <p>In no other group.</p>
      ) : (
        <ul class="list" aria-label="Parent groups">
          {parents.map((id) => (
            <li key={id}>{groupLink(id)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
