import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { callerToken, type TokenBackendDeps, type TokenRequest } from './deps.js';
import { lookupData } from './token-view.js';

/** `lookup`, `lookup-self` and `lookup-accessor`. */
export function pathLookup(d: TokenBackendDeps) {
  const self = async (req: TokenRequest) => {
    const { token, entry } = await callerToken(d, req);
    return { data: lookupData(entry, token, d.clock.now(), d.identityOf(entry.entity_id)) };
  };
  const byToken = async (req: TokenRequest, token: string | undefined) => {
    if (!token) return self(req);
    const entry = await d.store.lookup(token);
    if (!entry) throw new PermissionDeniedError('bad token');
    return { data: lookupData(entry, token, d.clock.now(), d.identityOf(entry.entity_id)) };
  };
  const help = (synopsis: string) => ({
    synopsis,
    description: 'Shows a token’s policies, TTL, uses left and metadata.',
  });
  return [
    definePath({
      pattern: 'lookup',
      fields: { token: field.string({ description: 'Token to look up; default: the caller’s own.' }) },
      operations: {
        read: { summary: 'Look up the caller’s token.', handler: async ({ req }) => self(req) },
        update: { summary: 'Look up a token.', handler: async ({ req, data }) => byToken(req, data.token) },
      },
      help: help('Look up a token.'),
    }),
    definePath({
      pattern: 'lookup-self',
      fields: {},
      operations: {
        read: { summary: 'Look up the caller’s token.', handler: async ({ req }) => self(req) },
        update: { summary: 'Look up the caller’s token.', handler: async ({ req }) => self(req) },
      },
      help: help('Look up the caller’s token.'),
    }),
    definePath({
      pattern: 'lookup-accessor',
      fields: { accessor: field.string({ description: 'Accessor of the token to look up.' }) },
      operations: {
        update: {
          summary: 'Look up a token by its accessor; the token itself is never shown.',
          handler: async ({ data }) => {
            if (!data.accessor) throw new InvalidRequestError('missing accessor');
            const entry = await d.store.lookupAccessor(data.accessor);
            if (!entry) throw new InvalidRequestError('invalid accessor');
            return { data: lookupData(entry, '', d.clock.now(), d.identityOf(entry.entity_id)) };
          },
        },
      },
      help: help('Look up a token by accessor.'),
    }),
  ];
}
