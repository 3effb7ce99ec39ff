import { definePath, field, type PathDefinition, sanitizePolicies } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';

/** What a login method maps a user or group name to. */
export type MappingKind = 'users' | 'groups';

/** `users/:name` (policies and local groups) and `groups/:name` (policies). */
export interface PolicyMapping {
  policies: string[];
  /** Users only: groups the user is in here besides the identity provider's. */
  groups?: string[];
}

/** A method's mappings, by kind and by the name as it stores it. */
export interface MappingRecords {
  mappings(storage: Storage, kind: MappingKind): Promise<string[]>;
  mapping(storage: Storage, kind: MappingKind, name: string): Promise<PolicyMapping | undefined>;
  putMapping(storage: Storage, kind: MappingKind, name: string, mapping: PolicyMapping): Promise<unknown>;
  deleteMapping(storage: Storage, kind: MappingKind, name: string): Promise<unknown>;
}

/** How one method's mapping paths differ from another's. */
export interface MappingPathsOptions {
  store: MappingRecords;
  /** In the order the paths are declared. */
  kinds: readonly MappingKind[];
  /** The name the mapping is stored under, from the name in the path (throws to refuse it). */
  fold: (storage: Storage, name: string) => string | Promise<string>;
  /** The router lower-cases the name (the ACL then judges every spelling as one). */
  caseInsensitive?: boolean;
  /** A read shows a user's local groups as one comma-joined string (LDAP, as established), not a list. */
  groupsAsText?: boolean;
  describeName(kind: MappingKind): string;
  /** `groups` of a user: whose groups they are besides. */
  localGroupsDescription: string;
  help(kind: MappingKind): { synopsis: string; description: string };
}

const singular = (kind: MappingKind) => kind.slice(0, -1);

/** `users/:name`, `groups/:name` (policies; users also local groups) and their listings. */
export function mappingPaths(o: MappingPathsOptions): PathDefinition[] {
  return o.kinds.flatMap((kind) => [
    definePath({
      pattern: `${kind}/`,
      fields: {},
      operations: {
        list: {
          summary: `List the ${kind}.`,
          handler: async ({ storage }) => ({ data: { keys: await o.store.mappings(storage, kind) } }),
        },
      },
      help: { synopsis: `List the ${kind} with policies.`, description: '404 when there are none.' },
    }),
    definePath({
      pattern: `${kind}/:name`,
      fields: {
        name: field.path({ description: o.describeName(kind), caseInsensitive: o.caseInsensitive }),
        policies: field.commaStrings({ description: 'Policies granted.' }),
        ...(kind === 'users' ? { groups: field.commaStrings({ description: o.localGroupsDescription }) } : {}),
      },
      operations: {
        update: {
          summary: `Set the policies of a ${singular(kind)}.`,
          handler: async ({ storage, data, supplied }) => {
            const name = await o.fold(storage, data.name);
            const current = await o.store.mapping(storage, kind, name);
            const d = data as { policies?: string[]; groups?: string[] };
            const mapping: PolicyMapping = {
              policies: supplied.has('policies') ? sanitizePolicies(d.policies ?? []) : (current?.policies ?? []),
            };
            if (kind === 'users') mapping.groups = supplied.has('groups') ? (d.groups ?? []) : (current?.groups ?? []);
            await o.store.putMapping(storage, kind, name, mapping);
            return undefined;
          },
        },
        read: {
          summary: `Read a ${singular(kind)}.`,
          handler: async ({ storage, data }) => {
            const m = await o.store.mapping(storage, kind, await o.fold(storage, data.name));
            if (!m) throw new NotFoundError('');
            if (kind !== 'users') return { data: { policies: m.policies } };
            const groups = m.groups ?? [];
            return { data: { policies: m.policies, groups: o.groupsAsText ? groups.join(',') : groups } };
          },
        },
        delete: {
          summary: `Delete a ${singular(kind)}.`,
          handler: async ({ storage, data }) => {
            await o.store.deleteMapping(storage, kind, await o.fold(storage, data.name));
            return undefined;
          },
        },
      },
      help: o.help(kind),
    }),
  ]);
}
