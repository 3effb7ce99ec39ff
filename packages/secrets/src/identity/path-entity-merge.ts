import { definePath, field } from '../framework/index.js';
import type { IdentityDeps } from './deps.js';
import { mergeEntities } from './merge.js';

/** `entity/merge`: merge entities into one. */
export function pathEntityMerge(d: IdentityDeps) {
  return definePath({
    pattern: 'entity/merge',
    fields: {
      from_entity_ids: field.commaStrings({ description: 'Entities to merge from (deleted afterwards).' }),
      to_entity_id: field.string({ description: 'Entity to merge into.' }),
      force: field.bool({ description: 'Merge despite MFA secret conflicts, keeping the destination’s secrets.' }),
      conflicting_alias_ids_to_keep: field.commaStrings({
        description: 'Where both sides have an alias on the same mount: the alias ids to keep.',
      }),
    },
    operations: {
      update: {
        summary: 'Merge entities.',
        handler: async ({ data }) => {
          await mergeEntities(d.store, {
            fromIds: data.from_entity_ids ?? [],
            toId: data.to_entity_id ?? '',
            force: data.force ?? false,
            keepAliasIds: data.conflicting_alias_ids_to_keep ?? [],
          });
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Merge entities into one.',
      description:
        'Aliases, group memberships and MFA secrets move to the destination; the sources are deleted and ' +
        'their tokens resolve to the destination. MFA secret conflicts fail the call (all listed) unless `force`.',
    },
  });
}
