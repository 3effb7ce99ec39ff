import type { PolicyStore } from '../core/policy/policy-store.js';
import type { TokenPolicyResolver } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { setOwn } from '../logical/own-entries.js';
import type { LogicalResponse } from '../logical/response.js';

const pathsFields = {
  paths: field.commaStrings({ description: 'Paths to report capabilities on.' }),
  path: field.commaStrings({ description: 'Deprecated name of `paths`.' }),
};

/** `sys/capabilities`, `sys/capabilities-self` and `sys/capabilities-accessor`. */
export function pathCapabilities(store: PolicyStore, tokens: TokenPolicyResolver): PathDefinition[] {
  return [
    definePath({
      pattern: 'capabilities',
      fields: { ...pathsFields, token: field.string({ description: 'The token to check.' }) },
      operations: {
        update: {
          summary: 'Report the capabilities of a token on paths.',
          handler: async ({ data }) => {
            if (!data.token) throw new InvalidRequestError('no token found');
            const policies = await tokens.policiesOfToken(data.token);
            if (!policies) throw new InvalidRequestError('invalid token');
            return report(store, policies, pathsOf(data), '');
          },
        },
      },
      help: capabilitiesHelp,
    }),
    definePath({
      pattern: 'capabilities-self',
      fields: pathsFields,
      operations: {
        update: {
          summary: "Report the capabilities of the request's own token on paths.",
          handler: async ({ data, req }) => {
            if (!req.caller) throw new InvalidRequestError('no token found');
            return report(store, req.caller.policies, pathsOf(data), req.caller.entityId);
          },
        },
      },
      help: capabilitiesHelp,
    }),
    definePath({
      pattern: 'capabilities-accessor',
      fields: { ...pathsFields, accessor: field.string({ description: 'Accessor of the token to check.' }) },
      operations: {
        update: {
          summary: 'Report the capabilities of the token with this accessor on paths.',
          handler: async ({ data }) => {
            if (!data.accessor) throw new InvalidRequestError('missing accessor');
            const policies = await tokens.policiesOfAccessor(data.accessor);
            if (!policies) throw new InvalidRequestError('invalid accessor');
            return report(store, policies, pathsOf(data), '');
          },
        },
      },
      help: capabilitiesHelp,
    }),
  ];
}

const capabilitiesHelp = {
  synopsis: 'Report the capabilities of a token on paths.',
  description: 'One key per path, each a sorted list of capabilities (`root` for root tokens, `deny` when none).',
};

/** `paths`, or the deprecated `path` when `paths` is absent. */
function pathsOf(data: { paths: string[] | undefined; path: string[] | undefined }): string[] {
  const paths = data.paths?.length ? data.paths : (data.path ?? []);
  if (paths.length === 0) throw new InvalidRequestError('paths must be supplied');
  return paths;
}

async function report(
  store: PolicyStore,
  policies: readonly string[],
  paths: string[],
  entityId: string,
): Promise<LogicalResponse> {
  const acl = (await store.acl(policies)).forEntity(entityId ? { id: entityId } : undefined);
  const data: Record<string, unknown> = {};
  for (const path of paths) setOwn(data, path, acl.capabilities(path));
  // Older clients read `capabilities` when they asked about a single path.
  if (paths.length === 1) data.capabilities = data[paths[0] as string];
  return { data, dataAtTopLevel: true };
}
