import type { EntityRecord } from '../core/identity/index.js';
import { definePath, field } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { entityData } from './views.js';

/** `lookup/entity`: find an entity by exactly one of id, name, alias id, or alias name + mount accessor. */
export function pathLookupEntity(d: IdentityDeps) {
  return definePath({
    pattern: 'lookup/entity',
    fields: {
      id: field.string({ description: 'Entity id.' }),
      name: field.string({ description: 'Entity name.' }),
      alias_id: field.string({ description: 'Alias id.' }),
      alias_name: field.string({ description: 'Alias name (with `alias_mount_accessor`).' }),
      alias_mount_accessor: field.string({ description: 'Mount accessor of `alias_name`.' }),
    },
    operations: {
      update: {
        summary: 'Look up an entity.',
        handler: async ({ data }) => {
          const given = [data.id, data.name, data.alias_id, data.alias_name || data.alias_mount_accessor].filter(
            Boolean,
          );
          if (given.length === 0) throw new InvalidRequestError('query parameter not supplied');
          if (given.length > 1) {
            throw new InvalidRequestError('query parameter conflict; please supply distinct set of query parameters');
          }
          let entity: EntityRecord | undefined;
          if (data.id) entity = d.store.entity(data.id);
          else if (data.name) entity = d.store.entityByName(data.name);
          else if (data.alias_id) entity = d.store.aliasById(data.alias_id)?.entity;
          else {
            if (!data.alias_name || !data.alias_mount_accessor) {
              throw new InvalidRequestError("both 'alias_name' and 'alias_mount_accessor' needs to be set");
            }
            entity = d.store.aliasByFactors(data.alias_mount_accessor, data.alias_name)?.entity;
          }
          // No match is an empty answer (204), not a 404: lookup is an update operation.
          return entity ? { data: entityData(d, entity) } : undefined;
        },
      },
    },
    help: { synopsis: 'Look up an entity.', description: 'By id, name, alias id, or alias name and mount accessor.' },
  });
}
