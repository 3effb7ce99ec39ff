import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.js';
import { ErrorMessage, messagesOf } from '../../components/error-message.js';
import { CheckboxField, Field, SelectField } from '../../components/field.js';
import { Loading, Page } from '../../components/page.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { pathOf } from '../../router/match.js';
import { ACCESS_CRUMBS, splitList } from './access-shared.js';
import { identityList } from './identity-list.js';

/**
 * Merge entities into one (`identity/entity/merge`). A refusal lists every conflict the server found
 * (aliases on the same mount, MFA secrets of the same method) in place, one item each; the alias IDs
 * to keep and `force` settle them on the next try.
 */
export function EntityMerge() {
  const { api, router } = useApp();
  const entities = useLoad(() => identityList(api, 'entity'), []);
  const [to, setTo] = useState('');
  const [from, setFrom] = useState<ReadonlySet<string>>(new Set());
  const [keep, setKeep] = useState('');
  const [force, setForce] = useState(false);
  const list = entities.data ?? [];
  const target = to || list[0]?.id || '';
  const merge = useAction(async () => {
    const sources = [...from].filter((id) => id !== target);
    if (sources.length === 0) throw new Error('choose at least one entity to merge from');
    const body: Record<string, unknown> = { to_entity_id: target, from_entity_ids: sources, force };
    const aliases = splitList(keep);
    if (aliases.length > 0) body.conflicting_alias_ids_to_keep = aliases;
    await api.write('identity/entity/merge', body);
    router.navigate(pathOf('access', 'entities', target));
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(from);
    if (on) next.add(id);
    else next.delete(id);
    setFrom(next);
  };
  return (
    <Page title="Merge entities" crumbs={[...ACCESS_CRUMBS, { label: 'Entities', to: '/access/entities' }]}>
      <ErrorMessage error={entities.error} />
      {entities.isLoading && !entities.data && <Loading />}
      {entities.data && list.length < 2 && <p>Merging needs at least two entities.</p>}
      {entities.data && list.length >= 2 && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            merge.run();
          }}
        >
          <SelectField
            label="Merge into"
            value={target}
            options={list.map((e) => [e.id, e.name] as const)}
            onChange={setTo}
            hint="The entity that stays; its policies and metadata are kept."
          />
          <fieldset>
            <legend>Entities to merge from (deleted after)</legend>
            {list
              .filter((e) => e.id !== target)
              .map((e) => (
                <CheckboxField key={e.id} label={e.name} checked={from.has(e.id)} onChange={(on) => toggle(e.id, on)} />
              ))}
          </fieldset>
          <Field
            label="Alias IDs to keep"
            value={keep}
            onInput={setKeep}
            hint="Comma-separated; settles aliases on the same mount (one source entity at a time)."
            isCode
          />
          <CheckboxField
            label="Force"
            checked={force}
            onChange={setForce}
            hint="Where both have an MFA secret of the same method, keep the destination's."
          />
          <ErrorMessage error={merge.error} label="The server refused the merge" />
          {merge.error !== undefined &&
            aliasClashes(messagesOf(merge.error)).map((c) => (
              <fieldset key={c.toAlias} class="confirm">
                <legend>Aliases on the same mount ({c.accessor}): which stays?</legend>
                {[c.toAlias, c.fromAlias].map((id, i) => (
                  <button
                    key={id}
                    type="button"
                    class="secondary wraps"
                    onClick={() => setKeep([...new Set([...splitList(keep), id])].join(', '))}
                  >
                    Keep {i === 0 ? 'the destination' : 'the source'}&rsquo;s alias {id}
                  </button>
                ))}
              </fieldset>
            ))}
          <div class="actions">
            <button type="submit" disabled={merge.isPending}>
              Merge entities
            </button>
          </div>
        </form>
      )}
    </Page>
  );
}

interface AliasClash {
  accessor: string;
  toAlias: string;
  fromAlias: string;
}

/** The alias clashes a refused merge names (the established wording), to choose the one that stays. */
function aliasClashes(messages: string[]): AliasClash[] {
  const found: AliasClash[] = [];
  for (const m of messages) {
    const match =
      /mountAccessor: (\S+), .*conflicting toEntity alias ID: ([\w-]+), conflicting fromEntity alias ID: ([\w-]+)/.exec(
        m,
      );
    if (match) found.push({ accessor: match[1] ?? '', toAlias: match[2] ?? '', fromAlias: match[3] ?? '' });
  }
  return found;
}
