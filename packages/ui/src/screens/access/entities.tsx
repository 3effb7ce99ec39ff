import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Link } from '../../components/link.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS, splitList } from './access-shared.js';
import { identityList } from './identity-list.js';

/** Identity entities (`identity/entity/id`), a form to create one, and a link to merge. */
export function Entities() {
  const { api, router } = useApp();
  const entities = useLoad(() => identityList(api, 'entity'), []);
  const caps = useCapabilities(['identity/entity', 'identity/entity/merge']);
  const [name, setName] = useState('');
  const [policies, setPolicies] = useState('');
  const create = useAction(async () => {
    const res = await api.write<{ id: string }>('identity/entity', {
      name: name.trim(),
      policies: splitList(policies),
    });
    const id = res?.data?.id;
    if (id) router.navigate(pathOf('access', 'entities', id));
    else entities.reload();
  });
  return (
    <Page
      title="Entities"
      crumbs={ACCESS_CRUMBS}
      actions={
        caps.allows('identity/entity/merge', ['update', 'create']) && (
          <Link to="/access/entities/merge" class="button secondary">
            Merge entities
          </Link>
        )
      }
    >
      <ErrorMessage error={entities.error} />
      {entities.isLoading && !entities.data && <Loading />}
      {entities.data && entities.data.length === 0 && <p>No entities yet.</p>}
      {entities.data && entities.data.length > 0 && (
        <DataTable
          label="Entities"
          rows={entities.data}
          keyOf={(r) => r.id}
          columns={[
            { header: 'Name', cell: (r) => <Link to={pathOf('access', 'entities', r.id)}>{r.name}</Link> },
            { header: 'ID', cell: (r) => r.id, class: 'code' },
          ]}
        />
      )}
      {caps.allows('identity/entity', ['create', 'update']) && (
        <section aria-labelledby="create-entity">
          <h2 id="create-entity">Create entity</h2>
          <ActionForm action={create} submitLabel="Create entity" class="form">
            <Field label="Entity name" value={name} onInput={setName} hint="Empty: a generated name." />
            <Field label="Policies" value={policies} onInput={setPolicies} hint="Comma-separated." isCode />
          </ActionForm>
        </section>
      )}
    </Page>
  );
}
