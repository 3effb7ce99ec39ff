import { authResponse, type TokenEntry } from '../../core/tokens/index.js';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import { callerToken, mountTtls, type TokenBackendDeps } from './deps.js';

const increment = field.durationSeconds({ description: 'Requested TTL from now; default: the token’s original TTL.' });

/** `renew`, `renew-self` and `renew-accessor`. */
export function pathRenew(d: TokenBackendDeps) {
  const renew = async (token: string, entry: TokenEntry, seconds: number | undefined): Promise<LogicalResponse> => {
    const renewed = await d.store.renew(entry, seconds ?? 0, mountTtls(d));
    return {
      auth: authResponse(token, renewed.entry),
      ...(renewed.warnings.length > 0 ? { warnings: renewed.warnings } : {}),
    };
  };
  const help = (synopsis: string) => ({
    synopsis,
    description: 'Extends a renewable token’s TTL, never past its explicit max TTL or the mount’s max TTL.',
  });
  return [
    definePath({
      pattern: 'renew',
      fields: { token: field.string({ description: 'Token to renew.' }), increment },
      operations: {
        update: {
          summary: 'Renew a token.',
          handler: async ({ data }) => {
            if (!data.token) throw new InvalidRequestError('missing token');
            const entry = await d.store.lookup(data.token);
            if (!entry) throw new InvalidRequestError('token not found');
            return renew(data.token, entry, data.increment);
          },
        },
      },
      help: help('Renew a token.'),
    }),
    definePath({
      pattern: 'renew-self',
      fields: { increment },
      operations: {
        update: {
          summary: 'Renew the caller’s token.',
          handler: async ({ req, data }) => {
            const { token, entry } = await callerToken(d, req);
            return renew(token, entry, data.increment);
          },
        },
      },
      help: help('Renew the caller’s token.'),
    }),
    definePath({
      pattern: 'renew-accessor',
      fields: { accessor: field.string({ description: 'Accessor of the token to renew.' }), increment },
      operations: {
        update: {
          summary: 'Renew a token by its accessor.',
          handler: async ({ data }) => {
            if (!data.accessor) throw new InvalidRequestError('missing accessor');
            const entry = await d.store.lookupAccessor(data.accessor);
            if (!entry) throw new InvalidRequestError('invalid accessor');
            return renew('', entry, data.increment);
          },
        },
      },
      help: help('Renew a token by accessor.'),
    }),
  ];
}
