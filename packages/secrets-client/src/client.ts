import { envelopeOrNull } from './envelope.js';
import { type KvApi, kvApi } from './kv.js';
import { type SysApi, sysApi } from './sys.js';
import { type TokenApi, tokenApi } from './token.js';
import { type ClientOptions, createTransport, type Transport } from './transport.js';
import type { HelpResponse, Secret, SecretAuth } from './types.js';

/** A typed client of the `/v1` API. Holds no state beyond its options; `withToken` makes a sibling. */
export interface Client {
  readonly address: string;
  /** The token sent with every request (`undefined` when none). */
  readonly authToken: string | undefined;
  /** `GET path`; `null` when there is nothing there (404 without errors). `query` becomes the query string. */
  read(path: string, query?: Record<string, string>): Promise<Secret | null>;
  /** `PUT path` with `data` as the JSON body; `null` for a 204. */
  write(path: string, data?: Record<string, unknown>): Promise<Secret | null>;
  /** The `LIST` verb; `null` when the server has no keys there. */
  list(path: string): Promise<Secret<{ keys: string[] }> | null>;
  /** `PATCH path` with `data` as a JSON merge patch (`null` removes a key); `null` for a 204. */
  patch(path: string, data: Record<string, unknown>): Promise<Secret | null>;
  /** `DELETE path`; `null` for a 204. */
  delete(path: string, query?: Record<string, string>): Promise<Secret | null>;
  /**
   * `sys/wrapping/unwrap`: the response a wrapping token holds, once. Without `token`, the client's
   * own token is the wrapping token.
   */
  unwrap(token?: string): Promise<Secret | null>;
  /** `GET path?help=1`: the help text of the backend serving `path`. */
  help(path: string): Promise<HelpResponse>;
  /**
   * Authenticates and returns the new token's `auth` block (the client itself is unchanged).
   * `token`: checks `params.token` with `lookup-self`. `userpass`, `ldap`, `okta`: `POST auth/<mount>/login/<username>`.
   * Any other method: `POST auth/<mount>/login` with `params` as the body. `mount` defaults to the method name.
   */
  login(method: string, params: Record<string, string>, mount?: string): Promise<SecretAuth>;
  sys: SysApi;
  token: TokenApi;
  /** KV helpers for the engine mounted at `mount`. */
  kv(mount: string): KvApi;
  /** A client with the same settings and another token. */
  withToken(token: string): Client;
  /** Releases the TLS connection pool (call once done; idle sockets would otherwise delay exit). */
  close(): Promise<void>;
}

/** Creates a client; see `ClientOptions`. TLS is verified unless `skipVerify` is set. */
export function createClient(options: ClientOptions): Client {
  return clientOver(createTransport(options));
}

/** Builds the typed methods over any transport (the test double supplies its own). */
export function clientOver(t: Transport): Client {
  const client: Client = {
    address: t.address,
    authToken: t.token,
    read: async (path, query) => envelopeOrNull(await t.send('GET', path, { query }), 'GET', t, path),
    write: async (path, data) => envelopeOrNull(await t.call('PUT', path, { body: data ?? {} }), 'PUT', t, path),
    list: async (path) =>
      envelopeOrNull(await t.send('LIST', path), 'LIST', t, path) as Secret<{ keys: string[] }> | null,
    patch: async (path, data) =>
      envelopeOrNull(
        await t.call('PATCH', path, { body: data, contentType: 'application/merge-patch+json' }),
        'PATCH',
        t,
        path,
      ),
    delete: async (path, query) => envelopeOrNull(await t.call('DELETE', path, { query }), 'DELETE', t, path),
    unwrap: async (token) =>
      envelopeOrNull(
        await t.call('PUT', 'sys/wrapping/unwrap', { body: token ? { token } : {} }),
        'PUT',
        t,
        'sys/wrapping/unwrap',
      ),
    help: async (path) => (await t.call('GET', path, { query: { help: '1' } })).body as HelpResponse,
    login: (method, params, mount) => login(t, method, params, mount ?? method),
    sys: sysApi(t),
    token: tokenApi(t),
    kv: (mount) => kvApi(t, mount),
    withToken: (token) => clientOver(t.withToken(token)),
    close: () => t.close(),
  };
  return client;
}

/** Methods whose login path ends in the username (`auth/<mount>/login/<username>`). */
const USERNAME_METHODS = new Set(['userpass', 'ldap', 'okta']);

async function login(t: Transport, method: string, params: Record<string, string>, mount: string) {
  if (method === 'token') {
    const token = params.token ?? '';
    const res = await t.call('GET', 'auth/token/lookup-self', { token });
    return authFromLookup(token, (res.body as Secret).data ?? {});
  }
  const { username, ...rest } = params;
  const byUsername = USERNAME_METHODS.has(method);
  const path = byUsername ? `auth/${mount}/login/${username ?? ''}` : `auth/${mount}/login`;
  const body = byUsername ? rest : params;
  const res = await t.call('PUT', path, { body });
  const auth = (res.body as Secret | undefined)?.auth;
  if (!auth) throw t.errorFor({ status: 502, body: { errors: ['login returned no auth block'] } }, 'PUT', path);
  return auth;
}

/** The `auth` block a token login reports, built from `lookup-self` as established clients do. */
function authFromLookup(token: string, d: Record<string, unknown>): SecretAuth {
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    client_token: token,
    accessor: String(d.accessor ?? ''),
    policies: strings(d.policies),
    token_policies: strings(d.policies),
    ...(Array.isArray(d.identity_policies) ? { identity_policies: strings(d.identity_policies) } : {}),
    metadata: (d.meta as Record<string, string> | null) ?? null,
    lease_duration: Number(d.ttl ?? 0),
    renewable: d.renewable === true,
    entity_id: String(d.entity_id ?? ''),
    token_type: d.type === 'batch' ? 'batch' : 'service',
    orphan: d.orphan === true,
    num_uses: Number(d.num_uses ?? 0),
    mfa_requirement: null,
  };
}
