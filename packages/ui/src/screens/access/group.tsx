import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { type GroupAlias, GroupAliasSection } from './group-alias.js';
import { GroupForm, type GroupInfo } from './group-form.js';
import { GroupMembers } from './group-members.js';

/** One group: its type, policies, members and member groups; edit or delete it. */
export function Group({ params }: ScreenProps) {
  const { api, router } = useApp();
  const id = params.id ?? '';
  const group = useLoad(() => api.read<GroupInfo & { alias?: GroupAlias }>(`identity/group/id/${id}`), [id]);
  const caps = useCapabilities([`identity/group/id/${id}`]);
  const remove = useAction(async () => {
    await api.delete(`identity/group/id/${id}`);
    router.navigate('/access/groups');
  });
  const data = group.data;
  return (
    <Page
      title={data?.name ?? 'Group'}
      crumbs={[...ACCESS_CRUMBS, { label: 'Groups', to: '/access/groups' }]}
      actions={
        caps.allows(`identity/group/id/${id}`, 'delete') && (
          <ConfirmButton
            label="Delete group"
            question={`Delete ${data?.name ?? id}?`}
            confirmLabel="Delete now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={remove.error ?? group.error} />
      {group.isLoading && !data && <Loading />}
      {data && (
        <>
          <dl class="facts" aria-label="Group">
            <dt>ID</dt>
            <dd class="code">{data.id}</dd>
            <dt>Type</dt>
            <dd>{data.type}</dd>
            <dt>Policies</dt>
            <dd class="code">{(data.policies ?? []).join(', ') || 'none'}</dd>
            <dt>Member entities</dt>
            <dd>
              {(data.member_entity_ids ?? []).length === 0 ? (
                'none'
              ) : (
                <ul class="list" aria-label="Member entities">
                  {(data.member_entity_ids ?? []).map((m) => (
                    <li key={m}>
                      <Link to={pathOf('access', 'entities', m)} class="code">
                        {m}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
          <GroupMembers group={data} onDone={group.reload} />
          {data.type === 'external' && <GroupAliasSection groupId={id} alias={data.alias} onDone={group.reload} />}
          {caps.allows(`identity/group/id/${id}`, 'update') && (
            <section aria-labelledby="edit-group">
              <h2 id="edit-group">Edit group</h2>
              <GroupForm key={JSON.stringify(data)} group={data} onSaved={() => group.reload()} />
            </section>
          )}
        </>
      )}
    </Page>
  );
}
