import { createHash } from 'node:crypto';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { BackendRequest } from '../../logical/request.js';
import { getJson, putJson } from '../../logical/storage.js';

/**
 * Where a token's cubbyhole lives in the mount's storage. Keyed by a digest of the accessor, so
 * storage key names (which the barrier does not encrypt) do not reveal accessors.
 */
export function cubbyholePrefix(accessor: string): string {
  return `${createHash('sha256').update(accessor).digest('hex')}/`;
}

/**
 * The caller's own cubbyhole key for `path`. Batch tokens have no accessor and so no cubbyhole,
 * as established.
 */
function ownKey(req: BackendRequest, path: string): string {
  const accessor = req.caller?.accessor;
  if (req.caller === undefined) throw new InvalidRequestError('client token empty');
  if (!accessor) throw new InvalidRequestError('cubbyhole operations are only supported by "service" type tokens');
  return `${cubbyholePrefix(accessor)}${path}`;
}

/** `cubbyhole/*path`: the caller's private secrets, stored and read back as given (like KV version 1). */
export function pathCubbyhole() {
  return definePath({
    pattern: '*path?',
    fields: { path: field.path({ description: 'Location of the secret in the caller’s cubbyhole.' }) },
    existenceCheck: async (ctx) => (await ctx.storage.get(ownKey(ctx.req, ctx.data.path))) !== undefined,
    operations: {
      read: {
        summary: 'Read a secret from the caller’s cubbyhole.',
        handler: async (ctx) => {
          const secret = await getJson<Record<string, unknown>>(ctx.storage, ownKey(ctx.req, ctx.data.path));
          if (!secret) throw new NotFoundError('');
          return { data: secret };
        },
      },
      create: {
        summary: 'Store a secret in the caller’s cubbyhole, replacing what was there.',
        handler: async (ctx) => {
          // The raw body is the secret: a key named `path` is the caller's data, not the URL capture.
          if (Object.keys(ctx.req.data).length === 0) throw new InvalidRequestError('missing data fields');
          await putJson(ctx.storage, ownKey(ctx.req, ctx.data.path), ctx.req.data);
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a secret from the caller’s cubbyhole.',
        handler: async (ctx) => {
          await ctx.storage.delete(ownKey(ctx.req, ctx.data.path));
          return undefined;
        },
      },
      list: {
        summary: 'List the secrets and folders below a path of the caller’s cubbyhole.',
        handler: async (ctx) => {
          const keys = await ctx.storage.list(ownKey(ctx.req, ctx.data.path));
          if (keys.length === 0) throw new NotFoundError('');
          return { data: { keys } };
        },
      },
    },
    help: {
      synopsis: 'Per-token private secret storage.',
      description: 'Each token sees only its own cubbyhole; it is destroyed when the token is revoked or expires.',
    },
  });
}
