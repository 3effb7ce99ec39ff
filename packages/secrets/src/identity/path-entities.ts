import type { EntityRecord } from '../core/identity/index.js';
import { definePath, field } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { type EntityInput, upsertEntity } from './entity-write.js';
import { entityData } from './views.js';

const writable = {
  name: field.string({ description: 'Name; default `entity-<UUID>`.' }),
  metadata: field.stringMap({ description: 'Metadata (map, or list of `key=value`).' }),
  policies: field.commaStrings({ description: 'Policies added to the entity’s tokens at request time.' }),
  disabled: field.bool({ description: 'Refuse the entity’s tokens (they are not revoked).' }),
};

type Writable = { name?: string; metadata?: Record<string, string>; policies?: string[]; disabled?: boolean };

const input = (data: Writable, supplied: ReadonlySet<string>, id?: string): EntityInput => ({
  id,
  name: data.name,
  metadata: supplied.has('metadata') ? data.metadata : undefined,
  policies: supplied.has('policies') ? data.policies : undefined,
  disabled: supplied.has('disabled') ? data.disabled : undefined,
});

const help = (synopsis: string) => ({
  synopsis,
  description: 'Entities tie aliases of auth mounts to one identity; their policies add to their tokens’.',
});

/** Read/delete by a finder, shared by `entity/id/:id` and `entity/name/:name`. */
function readDelete(d: IdentityDeps, find: (key: string) => EntityRecord | undefined) {
  return {
    read: {
      summary: 'Read an entity.',
      handler: async ({ data }: { data: { key: string } }) => {
        const entity = find(data.key);
        if (!entity) throw new NotFoundError('');
        return { data: entityData(d, entity) };
      },
    },
    delete: {
      summary: 'Delete an entity and its aliases (its tokens stop working).',
      handler: async ({ data }: { data: { key: string } }) => {
        await d.store.write(async () => {
          const entity = find(data.key);
          if (entity) await d.store.deleteEntity(entity.id);
        });
        return undefined;
      },
    },
  };
}

/** `entity`, `entity/id/:id`, `entity/name/:name`, their lists, and `entity/batch-delete`. */
export function pathEntities(d: IdentityDeps) {
  const byId = readDelete(d, (id) => d.store.entity(id));
  const byName = readDelete(d, (name) => d.store.entityByName(name));
  return [
    definePath({
      pattern: 'entity',
      fields: { id: field.string({ description: 'Entity to update.' }), ...writable },
      operations: {
        update: {
          summary: 'Create an entity, or update the one with this id or name.',
          handler: async ({ data, supplied }) => upsertEntity(d.store, input(data, supplied, data.id || undefined)),
        },
      },
      help: help('Create or update an entity.'),
    }),
    definePath({
      pattern: 'entity/id/',
      fields: {},
      operations: {
        list: { summary: 'List entity ids with their names and aliases.', handler: async () => listIds(d) },
      },
      help: help('List entities by id.'),
    }),
    definePath({
      pattern: 'entity/id/:key',
      fields: { key: field.path({ description: 'Entity id.' }), ...writable },
      operations: {
        update: {
          summary: 'Update an entity by id.',
          handler: async ({ data, supplied }) => upsertEntity(d.store, input(data, supplied, data.key)),
        },
        read: byId.read,
        delete: byId.delete,
      },
      help: help('Read, update or delete an entity by id.'),
    }),
    definePath({
      pattern: 'entity/name/',
      fields: {},
      operations: {
        list: {
          summary: 'List entity names.',
          handler: async () => {
            const keys = d.store.entities().map((e) => e.name);
            return { data: { keys } };
          },
        },
      },
      help: help('List entities by name.'),
    }),
    definePath({
      pattern: 'entity/name/*key',
      fields: { key: field.path({ description: 'Entity name.', caseInsensitive: true }), ...writable },
      operations: {
        update: {
          summary: 'Create or update an entity by name.',
          handler: async ({ data, supplied }) => {
            const existing = d.store.entityByName(data.key);
            return upsertEntity(d.store, { ...input(data, supplied, existing?.id), name: data.key });
          },
        },
        read: byName.read,
        delete: byName.delete,
      },
      help: help('Read, create, update or delete an entity by name.'),
    }),
    definePath({
      pattern: 'entity/batch-delete',
      fields: { entity_ids: field.commaStrings({ description: 'Entities to delete; unknown ids are skipped.' }) },
      operations: {
        update: {
          summary: 'Delete several entities.',
          handler: async ({ data }) => {
            if (!data.entity_ids || data.entity_ids.length === 0) {
              throw new InvalidRequestError('missing entity ids to delete');
            }
            const ids = data.entity_ids;
            await d.store.write(async () => {
              for (const id of ids) await d.store.deleteEntity(id);
            });
            return undefined;
          },
        },
      },
      help: help('Delete entities in a batch.'),
    }),
  ];
}

function listIds(d: IdentityDeps) {
  const entities = d.store.entities();
  const keyInfo: Record<string, unknown> = {};
  for (const e of entities) {
    const aliases = e.aliases.map((a) => {
      const mount = d.authMount(a.mount_accessor);
      return {
        id: a.id,
        name: a.name,
        mount_accessor: a.mount_accessor,
        ...(mount ? { mount_type: mount.type, mount_path: mount.path } : {}),
      };
    });
    keyInfo[e.id] = { name: e.name, ...(aliases.length > 0 ? { aliases } : {}) };
  }
  return { data: { keys: entities.map((e) => e.id), key_info: keyInfo } };
}
