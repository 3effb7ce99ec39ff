import type { Transport } from './transport.js';
import type { Secret, TokenCreateInput, TokenLookupData } from './types.js';

/** `auth/token/*`. Methods without a token argument act on the client's own token. */
export interface TokenApi {
  /** `create`, `create-orphan` (`orphan`) or `create/<role>` (`role`); the new token is in `auth`. */
  create(input: TokenCreateInput, options?: { orphan?: boolean; role?: string }): Promise<Secret>;
  lookupSelf(): Promise<Secret<TokenLookupData>>;
  lookup(token: string): Promise<Secret<TokenLookupData>>;
  lookupAccessor(accessor: string): Promise<Secret<TokenLookupData>>;
  /** `increment` is a duration (`"1h"`) or seconds; the server picks the TTL when omitted. */
  renewSelf(increment?: string): Promise<Secret>;
  renew(token: string, increment?: string): Promise<Secret>;
  renewAccessor(accessor: string, increment?: string): Promise<Secret>;
  /** Revokes the token and its children; unknown tokens are not an error. */
  revokeSelf(): Promise<void>;
  revoke(token: string): Promise<void>;
  revokeAccessor(accessor: string): Promise<void>;
  /** Revokes the token but leaves its children as orphans (needs `sudo`). */
  revokeOrphan(token: string): Promise<void>;
}

export function tokenApi(t: Transport): TokenApi {
  const post = async <D = Record<string, unknown>>(path: string, body: Record<string, unknown> = {}) =>
    (await t.call('PUT', `auth/token/${path}`, { body })).body as Secret<D>;
  const done = async (path: string, body: Record<string, unknown> = {}) => {
    await t.call('PUT', `auth/token/${path}`, { body });
  };
  const withIncrement = (body: Record<string, unknown>, increment?: string) =>
    increment === undefined ? body : { ...body, increment };
  return {
    create: (input, o = {}) => post(o.role ? `create/${o.role}` : o.orphan ? 'create-orphan' : 'create', { ...input }),
    lookupSelf: async () => (await t.call('GET', 'auth/token/lookup-self')).body as Secret<TokenLookupData>,
    lookup: (token) => post<TokenLookupData>('lookup', { token }),
    lookupAccessor: (accessor) => post<TokenLookupData>('lookup-accessor', { accessor }),
    renewSelf: (increment) => post('renew-self', withIncrement({}, increment)),
    renew: (token, increment) => post('renew', withIncrement({ token }, increment)),
    renewAccessor: (accessor, increment) => post('renew-accessor', withIncrement({ accessor }, increment)),
    revokeSelf: () => done('revoke-self'),
    revoke: (token) => done('revoke', { token }),
    revokeAccessor: (accessor) => done('revoke-accessor', { accessor }),
    revokeOrphan: (token) => done('revoke-orphan', { token }),
  };
}
