import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS } from './access-shared.js';
import { GroupForm } from './group-form.js';
import { identityList } from './identity-list.js';

/** Identity groups (`identity/group/id`) and a form to create one. */
export function Groups() {
  const { api, router } = useApp();
  const groups = useLoad(() => identityList(api, 'group'), []);
  const caps = useCapabilities(['identity/group']);
  return (
    <Page title="Groups" crumbs={ACCESS_CRUMBS}>
      <ErrorMessage error={groups.error} />
      {groups.isLoading && !groups.data && <Loading />}
      {groups.data && groups.data.length === 0 && <p>No groups yet.</p>}
      {groups.data && groups.data.length > 0 && (
        <DataTable
          label="Groups"
          rows={groups.data}
          keyOf={(r) => r.id}
          columns={[
            { header: 'Name', cell: (r) => <Link to={pathOf('access', 'groups', r.id)}>{r.name}</Link> },
            { header: 'ID', cell: (r) => r.id, class: 'code' },
          ]}
        />
      )}
      {caps.allows('identity/group', ['create', 'update']) && (
        <section aria-labelledby="create-group">
          <h2 id="create-group">Create group</h2>
          <GroupForm onSaved={(id) => (id ? router.navigate(pathOf('access', 'groups', id)) : groups.reload())} />
        </section>
      )}
    </Page>
  );
}
