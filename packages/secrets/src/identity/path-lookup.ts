import type { EntityRecord, GroupRecord } from '../core/identity/index.js';
import { definePath, field } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { entityData, groupData } from './views.js';

const criteria = {
  id: field.string({ description: 'Id.' }),
  name: field.string({ description: 'Name.' }),
  alias_id: field.string({ description: 'Alias id.' }),
  alias_name: field.string({ description: 'Alias name (with `alias_mount_accessor`).' }),
  alias_mount_accessor: field.string({ description: 'Mount accessor of `alias_name`.' }),
};

type Criteria = { id?: string; name?: string; alias_id?: string; alias_name?: string; alias_mount_accessor?: string };

/** Exactly one criterion, the alias name and mount accessor counting as one (the established texts). */
function checkCriteria(data: Criteria): void {
  const given = [data.id, data.name, data.alias_id, data.alias_name || data.alias_mount_accessor].filter(Boolean);
  if (given.length === 0) throw new InvalidRequestError('query parameter not supplied');
  if (given.length > 1) {
    throw new InvalidRequestError('query parameter conflict; please supply distinct set of query parameters');
  }
  if ((data.alias_name || data.alias_mount_accessor) && !(data.alias_name && data.alias_mount_accessor)) {
    throw new InvalidRequestError("both 'alias_name' and 'alias_mount_accessor' needs to be set");
  }
}

/** `lookup/entity`: find an entity by exactly one of id, name, alias id, or alias name + mount accessor. */
export function pathLookupEntity(d: IdentityDeps) {
  return definePath({
    pattern: 'lookup/entity',
    fields: criteria,
    operations: {
      update: {
        summary: 'Look up an entity.',
        handler: async ({ data }) => {
          checkCriteria(data);
          let entity: EntityRecord | undefined;
          if (data.id) entity = d.store.entity(data.id);
          else if (data.name) entity = d.store.entityByName(data.name);
          else if (data.alias_id) entity = d.store.aliasById(data.alias_id)?.entity;
          else entity = d.store.aliasByFactors(data.alias_mount_accessor ?? '', data.alias_name ?? '')?.entity;
          // No match is an empty answer (204), not a 404: lookup is an update operation.
          return entity ? { data: entityData(d, entity) } : undefined;
        },
      },
    },
    help: { synopsis: 'Look up an entity.', description: 'By id, name, alias id, or alias name and mount accessor.' },
  });
}

/** `lookup/group`: find a group by exactly one of id, name, alias id, or alias name + mount accessor. */
export function pathLookupGroup(d: IdentityDeps) {
  return definePath({
    pattern: 'lookup/group',
    fields: criteria,
    operations: {
      update: {
        summary: 'Look up a group.',
        handler: async ({ data }) => {
          checkCriteria(data);
          let group: GroupRecord | undefined;
          if (data.id) group = d.store.group(data.id);
          else if (data.name) group = d.store.groupByName(data.name);
          else {
            const alias = data.alias_id
              ? d.store.groupAlias(data.alias_id)
              : d.store.groupAliasByFactors(data.alias_mount_accessor ?? '', data.alias_name ?? '');
            group = alias ? d.store.group(alias.canonical_id) : undefined;
          }
          return group ? { data: groupData(d, group) } : undefined;
        },
      },
    },
    help: { synopsis: 'Look up a group.', description: 'By id, name, alias id, or alias name and mount accessor.' },
  });
}
