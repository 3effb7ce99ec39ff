import { definePath, field } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { type GroupAliasInput, upsertGroupAlias } from './group-alias-write.js';
import { groupAliasData } from './views.js';

const writable = {
  name: field.string({ description: 'Name of the group at its auth mount (an LDAP group, a groups claim).' }),
  mount_accessor: field.string({ description: 'Accessor of the auth mount.' }),
  canonical_id: field.string({ description: 'External group the alias belongs to; a new one when absent on create.' }),
};

type Writable = { name?: string; mount_accessor?: string; canonical_id?: string };

const input = (data: Writable, id: string | undefined): GroupAliasInput => ({
  id,
  name: data.name || undefined,
  mountAccessor: data.mount_accessor || undefined,
  canonicalId: data.canonical_id || undefined,
});

const help = (synopsis: string) => ({
  synopsis,
  description: 'A group alias names an external group at one auth mount; logins reporting that group join it.',
});

/** `group-alias`, `group-alias/id/:id` and `group-alias/id/` (LIST). */
export function pathGroupAlias(d: IdentityDeps) {
  return [
    definePath({
      pattern: 'group-alias',
      fields: { id: field.string({ description: 'Alias to update.' }), ...writable },
      operations: {
        update: {
          summary: 'Create a group alias, or update the one with this id.',
          handler: async ({ data }) => ({ data: await upsertGroupAlias(d, input(data, data.id || undefined)) }),
        },
      },
      help: help('Create or update a group alias.'),
    }),
    definePath({
      pattern: 'group-alias/id/',
      fields: {},
      operations: {
        list: {
          summary: 'List group alias ids with their details.',
          handler: async () => {
            const aliases = d.store.groupAliases();
            if (aliases.length === 0) throw new NotFoundError('');
            const keyInfo = new Map(aliases.map((a) => [a.id, groupAliasData(d, a)]));
            return { data: { keys: aliases.map((a) => a.id), key_info: Object.fromEntries(keyInfo) } };
          },
        },
      },
      help: help('List group aliases.'),
    }),
    definePath({
      pattern: 'group-alias/id/:id',
      fields: { id: field.path({ description: 'Group alias id.' }), ...writable },
      operations: {
        update: {
          summary: 'Update a group alias.',
          handler: async ({ data }) => ({ data: await upsertGroupAlias(d, input(data, data.id)) }),
        },
        read: {
          summary: 'Read a group alias.',
          handler: async ({ data }) => {
            const alias = d.store.groupAlias(data.id);
            if (!alias) throw new NotFoundError('');
            return { data: groupAliasData(d, alias) };
          },
        },
        delete: {
          summary: 'Delete a group alias (204 whether or not it existed).',
          handler: async ({ data }) => {
            await d.store.write(() => d.store.deleteGroupAlias(data.id));
            return undefined;
          },
        },
      },
      help: help('Read, update or delete a group alias by id.'),
    }),
  ];
}
