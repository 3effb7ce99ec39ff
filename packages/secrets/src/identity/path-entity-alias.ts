import { definePath, field } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';
import { type AliasInput, deleteAlias, upsertAlias } from './alias-write.js';
import type { IdentityDeps } from './deps.js';
import { checkMetadata } from './entity-write.js';
import { aliasData } from './views.js';

const writable = {
  name: field.string({ description: 'Name of the alias at its mount (userpass: the username).' }),
  mount_accessor: field.string({ description: 'Accessor of the auth mount.' }),
  canonical_id: field.string({ description: 'Entity the alias belongs to; a new entity when absent on create.' }),
  entity_id: field.string({ description: 'Deprecated: use `canonical_id`.' }),
  custom_metadata: field.stringMap({ description: 'Custom metadata.' }),
};

type Writable = {
  name?: string;
  mount_accessor?: string;
  canonical_id?: string;
  entity_id?: string;
  custom_metadata?: Record<string, string>;
};

function input(data: Writable, id: string | undefined): AliasInput {
  if (data.custom_metadata) checkMetadata(data.custom_metadata, 'alias custom');
  return {
    id,
    name: data.name || undefined,
    mountAccessor: data.mount_accessor || undefined,
    canonicalId: data.canonical_id || data.entity_id || undefined,
    customMetadata: data.custom_metadata,
  };
}

const help = (synopsis: string) => ({
  synopsis,
  description: 'An alias is an entity’s name at one auth mount; an entity has at most one alias per mount.',
});

/** `entity-alias`, `entity-alias/id/:id` and `entity-alias/id/` (LIST). */
export function pathEntityAlias(d: IdentityDeps) {
  return [
    definePath({
      pattern: 'entity-alias',
      fields: { id: field.string({ description: 'Alias to update.' }), ...writable },
      operations: {
        update: {
          summary: 'Create an alias, or update the one with this id or mount and name.',
          handler: async ({ data }) => ({ data: await upsertAlias(d, input(data, data.id || undefined)) }),
        },
      },
      help: help('Create or update an entity alias.'),
    }),
    definePath({
      pattern: 'entity-alias/id/',
      fields: {},
      operations: {
        list: {
          summary: 'List alias ids with their details.',
          handler: async () => {
            const aliases = d.store.entities().flatMap((e) => e.aliases);
            const keyInfo: Record<string, unknown> = {};
            for (const a of aliases) {
              const { id: _id, namespace_id: _ns, creation_time: _c, last_update_time: _u, ...info } = aliasData(d, a);
              keyInfo[a.id] = info;
            }
            return { data: { keys: aliases.map((a) => a.id), key_info: keyInfo } };
          },
        },
      },
      help: help('List entity aliases.'),
    }),
    definePath({
      pattern: 'entity-alias/id/:id',
      fields: { id: field.path({ description: 'Alias id.' }), ...writable },
      operations: {
        update: {
          summary: 'Update an alias.',
          handler: async ({ data }) => ({ data: await upsertAlias(d, input(data, data.id)) }),
        },
        read: {
          summary: 'Read an alias.',
          handler: async ({ data }) => {
            const found = d.store.aliasById(data.id);
            if (!found) throw new NotFoundError('');
            return { data: aliasData(d, found.alias) };
          },
        },
        delete: {
          summary: 'Delete an alias.',
          handler: async ({ data }) => {
            await deleteAlias(d, data.id);
            return undefined;
          },
        },
      },
      help: help('Read, update or delete an entity alias.'),
    }),
  ];
}
