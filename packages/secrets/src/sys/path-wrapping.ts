import type { WrappingControl, WrappingTokenRef } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';

/** Unauthenticated, as established: anyone holding a wrapping token may check it without spending it. */
export const WRAPPING_UNAUTHENTICATED_PATHS = ['wrapping/lookup'];

const tokenField = {
  token: field.string({ description: 'The wrapping token; default: the caller’s own token, if it is one.' }),
};

/** The wrapping token a request names: in the body, or the caller's own. */
function tokenRef(req: BackendRequest, token: string | undefined): WrappingTokenRef {
  return token ? { token } : { accessor: req.caller?.accessor ?? '' };
}

/** `sys/wrapping/wrap`, `unwrap`, `lookup` and `rewrap`. */
export function pathWrapping(wrapping: WrappingControl): PathDefinition[] {
  return [
    definePath({
      pattern: 'wrapping/wrap',
      fields: {},
      operations: {
        update: {
          summary: 'Wrap the request body in a single-use token (the request must ask for wrapping).',
          handler: async ({ req }) => {
            if (!req.wrapTtlSeconds) throw new InvalidRequestError('endpoint requires response wrapping to be used');
            return { data: req.data };
          },
        },
      },
      help: {
        synopsis: 'Response-wrap arbitrary data.',
        description: 'Send the data with `X-Vault-Wrap-TTL`; the answer is a wrapping token that unwraps to it.',
      },
    }),
    definePath({
      pattern: 'wrapping/unwrap',
      fields: tokenField,
      operations: {
        update: {
          summary: 'Spend a wrapping token and return the response it holds.',
          handler: async ({ req, data }): Promise<LogicalResponse> => {
            const { creationPath, envelope } = await wrapping.unwrap(tokenRef(req, data.token));
            // Data wrapped by `sys/wrapping/wrap` comes back as data; any other response as it was sent.
            if (creationPath === 'sys/wrapping/wrap')
              return { data: (envelope.data as Record<string, unknown>) ?? null };
            return { raw: { status: 200, body: envelope } };
          },
        },
      },
      help: {
        synopsis: 'Unwrap a response-wrapping token.',
        description: 'The token can be unwrapped once; it and its cubbyhole are gone afterwards.',
      },
    }),
    definePath({
      pattern: 'wrapping/lookup',
      fields: tokenField,
      operations: {
        update: {
          summary: 'Show when and where a wrapping token was made, without spending it.',
          handler: async ({ data }) => {
            if (!data.token) throw new InvalidRequestError('missing "token" value in input');
            return { data: { ...(await wrapping.lookup(data.token)) } };
          },
        },
      },
      help: {
        synopsis: 'Look up a response-wrapping token.',
        description: 'Shows `creation_path`, `creation_time` and `creation_ttl`; the token stays usable.',
      },
    }),
    definePath({
      pattern: 'wrapping/rewrap',
      fields: tokenField,
      operations: {
        update: {
          summary: 'Move a wrapped response to a new wrapping token with the same TTL.',
          handler: async ({ req, data }) => ({ wrapInfo: await wrapping.rewrap(tokenRef(req, data.token)) }),
        },
      },
      help: {
        synopsis: 'Rewrap a response-wrapping token.',
        description:
          'The old token is spent; the new one holds the same response and lives as long as the old one did.',
      },
    }),
  ];
}
