import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { envelopeOf } from '../../logical/envelope.js';
import { type MapKind, policyMaps } from './config-store.js';

const SINGULAR = new Map<MapKind, string>([
  ['teams', 'team'],
  ['users', 'user'],
]);

/** `map/teams`, `map/users` (LIST) and `map/<kind>/:key`: policies granted to a team's members or a user. */
export function pathMaps(): PathDefinition[] {
  return (['teams', 'users'] as const).flatMap((kind) => {
    const what = SINGULAR.get(kind) ?? kind;
    return [
      definePath({
        pattern: `map/${kind}/`,
        fields: {},
        operations: {
          list: {
            summary: `List the mapped ${kind}.`,
            handler: async ({ storage }) => ({ data: { keys: await policyMaps.list(storage, kind) } }),
          },
        },
        help: { synopsis: `List the ${what} mappings.`, description: 'Names in lower case; 404 when none.' },
      }),
      definePath({
        pattern: `map/${kind}/:key`,
        fields: {
          key: field.path({
            description: `GitHub ${what} name (case-insensitive; a team by name or slug).`,
            caseInsensitive: true,
          }),
          value: field.string({ description: 'Comma-separated policies.', default: '' }),
        },
        operations: {
          update: {
            summary: `Map the ${what} to policies.`,
            handler: async ({ storage, data }) => {
              const value = data.value
                .split(',')
                .map((p) => p.trim())
                .filter((p) => p !== '')
                .join(',');
              await policyMaps.put(storage, kind, { key: data.key.toLowerCase(), value });
              return undefined;
            },
          },
          read: {
            summary: `Read the ${what}'s policies.`,
            handler: async ({ storage, data, req }) => {
              const mapping = await policyMaps.get(storage, kind, data.key.toLowerCase());
              if (mapping) return { data: { ...mapping } };
              // Established: an unmapped name answers 200 with the envelope and `data: null` (not 404, not 204).
              return { raw: { status: 200, body: envelopeOf(req.id, {}) } };
            },
          },
          delete: {
            summary: 'Remove the mapping.',
            handler: async ({ storage, data }) => {
              await policyMaps.delete(storage, kind, data.key.toLowerCase());
              return undefined;
            },
          },
        },
        help: {
          synopsis: `Policies of a GitHub ${what}.`,
          description:
            'At login the policies of every team of the organization the user is in, and of the user, add up.',
        },
      }),
    ];
  });
}
