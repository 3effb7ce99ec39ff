import { useLayoutEffect, useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field, SelectField, TextAreaField } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import type { ScreenProps } from '../../screen.js';
import { ACCESS_CRUMBS, pairsText, parsePairs, splitList } from './access-shared.js';
import { authMounts } from './auth-methods.js';

interface EntityAlias {
  id: string;
  name: string;
  mount_accessor: string;
  mount_path: string;
  mount_type: string;
}

interface EntityInfo {
  id: string;
  name: string;
  policies: string[] | null;
  metadata: Record<string, string> | null;
  aliases: EntityAlias[] | null;
  group_ids: string[] | null;
  disabled: boolean;
}

const CRUMBS = [...ACCESS_CRUMBS, { label: 'Entities', to: '/access/entities' }];

/** One entity: its aliases, groups, policies and metadata; edit, add or delete an alias, delete. */
export function Entity({ params }: ScreenProps) {
  const { api, router } = useApp();
  const id = params.id ?? '';
  const entity = useLoad(() => api.read<EntityInfo>(`identity/entity/id/${id}`), [id]);
  const caps = useCapabilities([
    `identity/entity/id/${id}`,
    'identity/entity-alias',
    'identity/entity-alias/id/example',
  ]);
  const removeAlias = useAction(async (aliasId: string) => {
    await api.delete(`identity/entity-alias/id/${aliasId}`);
    entity.reload();
  });
  const remove = useAction(async () => {
    await api.delete(`identity/entity/id/${id}`);
    router.navigate('/access/entities');
  });
  const data = entity.data;
  return (
    <Page
      title={data?.name ?? 'Entity'}
      crumbs={CRUMBS}
      actions={
        caps.allows(`identity/entity/id/${id}`, 'delete') && (
          <ConfirmButton
            label="Delete entity"
            question={`Delete ${data?.name ?? id} and its aliases?`}
            confirmLabel="Delete now"
            onConfirm={() => remove.run()}
          />
        )
      }
    >
      <ErrorMessage error={remove.error ?? removeAlias.error ?? entity.error} />
      {entity.isLoading && !data && <Loading />}
      {!entity.isLoading && !data && !entity.error && <p>No entity has the ID {id}.</p>}
      {data && (
        <>
          <dl class="facts" aria-label="Entity">
            <dt>ID</dt>
            <dd class="code">{data.id}</dd>
            <dt>Policies</dt>
            <dd class="code">{(data.policies ?? []).join(', ') || 'none'}</dd>
            <dt>Groups</dt>
            <dd class="code">{(data.group_ids ?? []).join(', ') || 'none'}</dd>
            <dt>Disabled</dt>
            <dd>{data.disabled ? 'yes' : 'no'}</dd>
          </dl>
          <h2>Aliases</h2>
          {(data.aliases ?? []).length === 0 ? (
            <p>No aliases.</p>
          ) : (
            <DataTable
              label="Aliases"
              rows={data.aliases ?? []}
              keyOf={(a) => a.id}
              columns={[
                { header: 'Name', cell: (a) => a.name, class: 'code' },
                { header: 'Mount', cell: (a) => `${a.mount_path} (${a.mount_type})`, class: 'code' },
                { header: 'Alias ID', cell: (a) => a.id, class: 'code' },
                caps.allows('identity/entity-alias/id/example', 'delete') && {
                  header: 'Actions',
                  cell: (a) => (
                    <ConfirmButton
                      label={`Delete alias ${a.name}`}
                      question={`Delete the alias ${a.name} on ${a.mount_path}? Signing in there makes a new entity.`}
                      confirmLabel={`Delete alias ${a.name} now`}
                      disabled={removeAlias.isPending}
                      onConfirm={() => removeAlias.run(a.id)}
                    />
                  ),
                },
              ]}
            />
          )}
          {caps.allows('identity/entity-alias', ['create', 'update']) && (
            <AliasForm entityId={id} onDone={entity.reload} />
          )}
          {caps.allows(`identity/entity/id/${id}`, 'update') && <EditForm entity={data} onDone={entity.reload} />}
        </>
      )}
    </Page>
  );
}

function EditForm({ entity, onDone }: { entity: EntityInfo; onDone(): void }) {
  const { api } = useApp();
  const [policies, setPolicies] = useState('');
  const [metadata, setMetadata] = useState('');
  // Filled in the same turn as the first render with the data, so nothing typed in between is overwritten.
  useLayoutEffect(() => {
    setPolicies((entity.policies ?? []).join(', '));
    setMetadata(pairsText(entity.metadata));
  }, [entity]);
  const save = useAction(async () => {
    await api.write(`identity/entity/id/${entity.id}`, {
      policies: splitList(policies),
      metadata: parsePairs(metadata),
    });
    onDone();
  });
  return (
    <section aria-labelledby="edit-entity">
      <h2 id="edit-entity">Policies and metadata</h2>
      <ActionForm action={save} submitLabel="Save entity" class="form">
        <Field label="Policies" value={policies} onInput={setPolicies} hint="Comma-separated." isCode />
        <TextAreaField label="Metadata" value={metadata} onInput={setMetadata} rows={4} hint="One key=value a line." />
      </ActionForm>
    </section>
  );
}

/** An entity alias: the entity's name on one auth method (`identity/entity-alias`). */
function AliasForm({ entityId, onDone }: { entityId: string; onDone(): void }) {
  const { api } = useApp();
  const mounts = useLoad(() => authMounts(api), []);
  const [accessor, setAccessor] = useState('');
  const [name, setName] = useState('');
  const options = (mounts.data ?? []).map((m) => [m.accessor, `${m.path} (${m.type})`] as const);
  const chosen = accessor || options[0]?.[0] || '';
  const create = useAction(async () => {
    await api.write('identity/entity-alias', { name: name.trim(), canonical_id: entityId, mount_accessor: chosen });
    setName('');
    onDone();
  });
  return (
    <section aria-labelledby="add-alias">
      <h2 id="add-alias">Add alias</h2>
      <ErrorMessage error={mounts.error} />
      <ActionForm action={create} submitLabel="Add alias" class="form">
        <SelectField label="Auth method" value={chosen} options={options} onChange={setAccessor} />
        <Field
          label="Alias name"
          value={name}
          onInput={setName}
          hint="The name the method knows (a username)."
          isCode
          required
        />
      </ActionForm>
    </section>
  );
}
