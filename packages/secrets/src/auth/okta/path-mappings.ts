import { definePath, field, type PathDefinition, sanitizePolicies } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type MappingKind, type OktaMapping, oktaStore } from './okta-store.js';

/**
 * A group's mapping: by its exact name, else (as established) by a case-insensitive match,
 * since Okta group names keep the case an administrator gave them.
 */
export async function groupMapping(storage: Storage, name: string): Promise<OktaMapping | undefined> {
  const exact = await oktaStore.mapping(storage, 'groups', name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const key of await oktaStore.mappings(storage, 'groups'))
    if (key.toLowerCase() === lower) return oktaStore.mapping(storage, 'groups', key);
  return undefined;
}

/** `users/:name`, `groups/:name` and their listings. */
export function pathMappings(): PathDefinition[] {
  return (['users', 'groups'] as const).flatMap((kind: MappingKind) => [
    definePath({
      pattern: `${kind}/`,
      fields: {},
      operations: {
        list: {
          summary: `List the ${kind}.`,
          handler: async ({ storage }) => ({ data: { keys: await oktaStore.mappings(storage, kind) } }),
        },
      },
      help: { synopsis: `List the ${kind} with policies.`, description: '404 when there are none.' },
    }),
    definePath({
      pattern: `${kind}/:name`,
      fields: {
        name: field.path({ description: `The Okta ${kind === 'users' ? 'username' : 'group name'}.` }),
        policies: field.commaStrings({ description: 'Policies granted.' }),
        ...(kind === 'users'
          ? { groups: field.commaStrings({ description: 'Groups the user is in here besides Okta’s.' }) }
          : {}),
      },
      operations: {
        update: {
          summary: `Set the policies of a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data, supplied }) => {
            const current = await oktaStore.mapping(storage, kind, data.name);
            const d = data as { policies?: string[]; groups?: string[] };
            const mapping: OktaMapping = {
              policies: supplied.has('policies') ? sanitizePolicies(d.policies ?? []) : (current?.policies ?? []),
            };
            if (kind === 'users') mapping.groups = supplied.has('groups') ? (d.groups ?? []) : (current?.groups ?? []);
            await oktaStore.putMapping(storage, kind, data.name, mapping);
            return undefined;
          },
        },
        read: {
          summary: `Read a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data }) => {
            const m = await oktaStore.mapping(storage, kind, data.name);
            if (!m) throw new NotFoundError('');
            return {
              data: kind === 'users' ? { policies: m.policies, groups: m.groups ?? [] } : { policies: m.policies },
            };
          },
        },
        delete: {
          summary: `Delete a ${kind.slice(0, -1)}.`,
          handler: async ({ storage, data }) => {
            await oktaStore.deleteMapping(storage, kind, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: `Policies of an Okta ${kind.slice(0, -1)}.`,
        description:
          kind === 'groups'
            ? 'Looked up by the Okta group name, exactly or else ignoring case.'
            : 'Policies and local groups of one Okta user.',
      },
    }),
  ]);
}
