import type { SecretAuth, TokenLookupData } from '@ward/secrets-client';
import type { Api } from './api.js';
import { lifetimeOf, type SessionData } from './session.js';

export type LoginMethod = 'token' | 'userpass' | 'ldap' | 'approle' | 'oidc';

export interface LoginInput {
  method: LoginMethod;
  namespace: string;
  /** The auth mount's path (`userpass`); unused for `token`. */
  mount: string;
  token?: string;
  username?: string;
  password?: string;
  roleId?: string;
  secretId?: string;
  role?: string;
}

/** Where the OIDC provider sends the popup back: the path the established UI registers, so roles need no change. */
export function oidcRedirectUri(origin: string, mount: string): string {
  return `${origin}/ui/vault/auth/${mount}/oidc/callback`;
}

/** Signs in by `input.method`; resolves with the session to keep. OIDC goes through `oidcLogin` first. */
export async function login(api: Api, input: LoginInput, nowMs: () => number): Promise<SessionData> {
  const { namespace } = input;
  if (input.method === 'token') return sessionOfToken(api, input.token ?? '', 'token', namespace, nowMs);
  const path =
    input.method === 'approle' ? `auth/${input.mount}/login` : `auth/${input.mount}/login/${input.username ?? ''}`;
  const body =
    input.method === 'approle' ? { role_id: input.roleId, secret_id: input.secretId } : { password: input.password };
  const res = await api.write(path, body, { token: null, namespace });
  if (!res?.auth) throw new Error('the server answered without a token');
  return sessionOfAuth(api, res.auth, input.method, namespace, nowMs);
}

/** The session for the `auth` block of a login (its name and lifetime from a lookup of the new token). */
export async function sessionOfAuth(
  api: Api,
  auth: SecretAuth,
  method: string,
  namespace: string,
  nowMs: () => number,
): Promise<SessionData> {
  const session = await sessionOfToken(api, auth.client_token, method, namespace, nowMs);
  return { ...session, ...lifetimeOf(auth, nowMs()) };
}

async function sessionOfToken(
  api: Api,
  token: string,
  method: string,
  namespace: string,
  nowMs: () => number,
): Promise<SessionData> {
  if (!token) throw new Error('enter a token');
  const res = await api.request<TokenLookupData>('GET', 'auth/token/lookup-self', { token, namespace });
  const d = res?.data;
  if (!d) throw new Error('the server answered the token lookup without data');
  return {
    token,
    accessor: d.accessor,
    namespace,
    method,
    displayName: d.display_name || method,
    policies: d.policies ?? [],
    ...lifetimeOf({ lease_duration: d.ttl, renewable: d.renewable }, nowMs()),
  };
}
