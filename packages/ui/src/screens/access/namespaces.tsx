import { useState } from 'preact/hooks';
import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Field } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { ACCESS_CRUMBS, trimSlashes } from './access-shared.js';

/** The child namespaces of the session's namespace (`sys/namespaces`): list, create, delete. */
export function Namespaces() {
  const { api, session } = useApp();
  const list = useLoad(() => api.list('sys/namespaces'), []);
  const caps = useCapabilities(['sys/namespaces/example']);
  const [path, setPath] = useState('');
  const [done, setDone] = useState('');
  const create = useAction(async () => {
    setDone('');
    const name = trimSlashes(path.trim());
    await api.write(`sys/namespaces/${name}`, {});
    setPath('');
    setDone(`Created ${name}/.`);
    list.reload();
  });
  const remove = useAction(async (name: string) => {
    setDone('');
    await api.delete(`sys/namespaces/${trimSlashes(name)}`);
    setDone(`Deleted ${name}.`);
    list.reload();
  });
  const canDelete = caps.allows('sys/namespaces/example', ['delete', 'sudo']);
  const here = session.namespace();
  return (
    <Page title="Namespaces" crumbs={ACCESS_CRUMBS}>
      <p>Namespaces under {here ? <span class="code">{here}</span> : 'the root'}.</p>
      <ErrorMessage error={list.error} />
      {list.isLoading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <p>No namespaces yet.</p>}
      {list.data && list.data.length > 0 && (
        <DataTable
          label="Namespaces"
          rows={list.data}
          keyOf={(ns) => ns}
          columns={[
            { header: 'Path', cell: (ns) => ns, class: 'code' },
            canDelete && {
              header: 'Actions',
              cell: (ns) => (
                <ConfirmButton
                  label={`Delete ${ns}`}
                  question={`Delete ${ns} and everything in it?`}
                  confirmLabel={`Delete ${ns} now`}
                  onConfirm={() => remove.run(ns)}
                />
              ),
            },
          ]}
        />
      )}
      <ErrorMessage error={remove.error} />
      {done && <output>{done}</output>}
      {caps.allows('sys/namespaces/example', ['create', 'update', 'sudo']) && (
        <section aria-labelledby="create-ns">
          <h2 id="create-ns">Create namespace</h2>
          <ActionForm action={create} submitLabel="Create namespace" class="form">
            <Field label="Namespace path" value={path} onInput={setPath} isCode required />
          </ActionForm>
        </section>
      )}
    </Page>
  );
}
