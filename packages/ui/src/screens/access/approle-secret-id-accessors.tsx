import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { DeletableList } from '../../components/deletable-list.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import type { Loaded } from '../../hooks/use-load.js';
import { CredentialFacts } from '../credentials.js';

/**
 * The accessors of a role's secret IDs (LIST `role/<name>/secret-id`), each with `Look up`
 * (`secret-id-accessor/lookup`: its metadata, times and uses) and `Destroy` (asked twice,
 * `secret-id-accessor/destroy`).
 */
export function SecretIdAccessors(p: { base: string; accessors: Loaded<string[]>; canDestroy: boolean }) {
  const { api } = useApp();
  const [found, setFound] = useState<{ accessor: string; data: Record<string, unknown> }>();
  const lookup = useAction(async (accessor: string) => {
    setFound(undefined);
    const res = await api.write(`${p.base}/secret-id-accessor/lookup`, { secret_id_accessor: accessor });
    setFound({ accessor, data: res?.data ?? {} });
  });
  const { accessors } = p;
  return (
    <section aria-labelledby="accessors-heading">
      <h2 id="accessors-heading">Secret ID accessors</h2>
      <ErrorMessage error={accessors.error ?? lookup.error} />
      {accessors.isLoading && !accessors.data && <Loading />}
      {accessors.data?.length === 0 && <p>No secret IDs yet.</p>}
      {accessors.data && accessors.data.length > 0 && (
        <DeletableList
          label="Secret ID accessors"
          noun="secret ID with the accessor"
          verb="Destroy"
          items={accessors.data}
          canDelete={p.canDestroy}
          render={(a) => (
            <>
              {a}{' '}
              <button type="button" class="secondary" aria-label={`Look up ${a}`} onClick={() => lookup.run(a)}>
                Look up
              </button>
            </>
          )}
          onDelete={async (a) => {
            await api.write(`${p.base}/secret-id-accessor/destroy`, { secret_id_accessor: a });
            if (found?.accessor === a) setFound(undefined);
            accessors.reload();
          }}
        />
      )}
      {found && (
        <section aria-labelledby="lookup-heading">
          <h3 id="lookup-heading">Secret ID {found.accessor}</h3>
          <CredentialFacts data={found.data} label={`Properties of ${found.accessor}`} />
        </section>
      )}
    </section>
  );
}
