import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { callerToken, type TokenBackendDeps } from './deps.js';

const help = (synopsis: string) => ({
  synopsis,
  description: 'Revokes a token, its child tokens and their leases; `revoke-orphan` leaves the children as orphans.',
});

/** `revoke`, `revoke-self`, `revoke-accessor` and `revoke-orphan`; each answers 204. */
export function pathRevoke(d: TokenBackendDeps) {
  return [
    definePath({
      pattern: 'revoke',
      fields: { token: field.string({ description: 'Token to revoke.' }) },
      operations: {
        update: {
          summary: 'Revoke a token and its children.',
          handler: async ({ data }) => {
            if (!data.token) throw new InvalidRequestError('missing token');
            await d.store.revoke(data.token);
            return undefined;
          },
        },
      },
      help: help('Revoke a token.'),
    }),
    definePath({
      pattern: 'revoke-self',
      fields: {},
      operations: {
        update: {
          summary: 'Revoke the caller’s token and its children.',
          handler: async ({ req }) => {
            const { entry } = await callerToken(d, req);
            if (entry.type === 'batch') throw new InvalidRequestError('batch tokens cannot be revoked');
            await d.store.revokeTree(entry.accessor);
            return undefined;
          },
        },
      },
      help: help('Revoke the caller’s token.'),
    }),
    definePath({
      pattern: 'revoke-accessor',
      fields: { accessor: field.string({ description: 'Accessor of the token to revoke.' }) },
      operations: {
        update: {
          summary: 'Revoke a token and its children by accessor.',
          handler: async ({ data }) => {
            if (!data.accessor) throw new InvalidRequestError('missing accessor');
            if (!(await d.store.lookupAccessor(data.accessor, { includeExhausted: true }))) {
              throw new InvalidRequestError('invalid accessor');
            }
            await d.store.revokeTree(data.accessor);
            return undefined;
          },
        },
      },
      help: help('Revoke a token by accessor.'),
    }),
    definePath({
      pattern: 'revoke-orphan',
      fields: { token: field.string({ description: 'Token to revoke.' }) },
      operations: {
        update: {
          summary: 'Revoke a token, leaving its children as orphans (root or sudo only).',
          handler: async ({ req, data }) => {
            if (!(await d.hasSudo(req, `${req.mountPoint}${req.path}`))) {
              throw new PermissionDeniedError('root or sudo privileges required to revoke and orphan');
            }
            if (!data.token) throw new InvalidRequestError('missing token');
            await d.store.revokeOrphan(data.token);
            return undefined;
          },
        },
      },
      help: help('Revoke a token without its children.'),
    }),
  ];
}
