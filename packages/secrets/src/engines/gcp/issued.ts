import type { SecretType } from '../../framework/index.js';
import { ServiceAccountTokenSource } from '../../google/auth-client.js';
import { parseServiceAccountCredentials } from '../../google/credentials.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { IssuedSecret } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import { gcpCloud } from './cloud.js';
import type { GcpEngineDeps } from './deps.js';
import { gcpEngineStore, type TokenKey } from './gcp-store.js';

/** The lease type of service account keys. */
export const SERVICE_ACCOUNT_KEY = 'service_account_key';

/** Who a key was issued for: a roleset or a static account, and its account then. */
interface KeyInternal {
  key_name: string;
  owner: 'roleset' | 'static-account';
  owner_name: string;
  service_account_email: string;
  /** When the key was issued (ms), for the `max_ttl` cap of renewals; absent: uncapped. */
  issued_ms?: number;
}

/** An OAuth access token minted with a kept key (JWT bearer grant at its token_uri). Not leased. */
export async function mintToken(d: GcpEngineDeps, key: TokenKey, scopes: string[]) {
  const source = new ServiceAccountTokenSource(parseServiceAccountCredentials(key.json), d.clock, scopes.join(' '));
  const { token, expiresAtS } = await source.accessToken();
  return tokenData(d, token, expiresAtS);
}

export function tokenData(d: GcpEngineDeps, token: string, expiresAtS: number) {
  return {
    data: {
      token,
      token_ttl: Math.max(0, expiresAtS - Math.floor(d.clock.now() / 1000)),
      expires_at_seconds: expiresAtS,
    },
  };
}

const KEY_ALGORITHMS = ['KEY_ALG_RSA_2048', 'KEY_ALG_RSA_1024', 'KEY_ALG_UNSPECIFIED'];

/** A new key of `email`, leased: its revocation deletes it. */
export async function issueKey(
  d: GcpEngineDeps,
  storage: Storage,
  owner: Pick<KeyInternal, 'owner' | 'owner_name' | 'service_account_email'>,
  request: { key_algorithm?: string; key_type?: string; ttl?: number },
): Promise<{ secret: IssuedSecret }> {
  const algorithm = request.key_algorithm || 'KEY_ALG_RSA_2048';
  if (!KEY_ALGORITHMS.includes(algorithm))
    throw new InvalidRequestError(`key_algorithm must be one of ${KEY_ALGORITHMS.join(', ')}`);
  if (request.key_type && request.key_type !== 'TYPE_GOOGLE_CREDENTIALS_FILE')
    throw new InvalidRequestError('key_type: only TYPE_GOOGLE_CREDENTIALS_FILE is issued here');
  const config = await gcpEngineStore.config(storage);
  const key = await gcpCloud.createKey(d.apisOf(config), owner.service_account_email, algorithm);
  let ttl = request.ttl || config.ttl;
  if (config.max_ttl > 0) ttl = Math.min(ttl || config.max_ttl, config.max_ttl);
  const internal: KeyInternal = { key_name: key.name, ...owner, issued_ms: d.clock.now() };
  return {
    secret: {
      type: SERVICE_ACCOUNT_KEY,
      data: {
        private_key_data: Buffer.from(key.json).toString('base64'),
        key_algorithm: key.algorithm,
        key_type: 'TYPE_GOOGLE_CREDENTIALS_FILE',
      },
      internal: internal as unknown as Record<string, unknown>,
      ttlSeconds: ttl,
    },
  };
}

async function ownerAccount(storage: Storage, k: KeyInternal): Promise<string | undefined> {
  const owner =
    k.owner === 'roleset'
      ? await gcpEngineStore.rolesets.get(storage, k.owner_name)
      : await gcpEngineStore.staticAccounts.get(storage, k.owner_name);
  return owner?.service_account_email;
}

/**
 * Leases of keys: revoking deletes the key in IAM (one already gone, with its account, is
 * revoked); renewing needs the roleset or static account still there with the same account.
 */
export function keySecret(d: GcpEngineDeps): SecretType {
  return {
    type: SERVICE_ACCOUNT_KEY,
    async revoke({ storage, internal }) {
      const k = internal as unknown as KeyInternal;
      await gcpCloud.deleteKey(await d.apis(storage), k.key_name);
    },
    async renew({ storage, internal, incrementSeconds }) {
      const k = internal as unknown as KeyInternal;
      if ((await ownerAccount(storage, k)) !== k.service_account_email)
        throw new InvalidRequestError(
          `${k.owner} "${k.owner_name}" no longer exists or has a new account: not renewing`,
        );
      const config = await gcpEngineStore.config(storage);
      const asked = incrementSeconds || config.ttl;
      if (config.max_ttl <= 0 || k.issued_ms === undefined) return asked ? { ttlSeconds: asked } : undefined;
      // The lease ends at most max_ttl after the key was issued, as established.
      const left = Math.floor((k.issued_ms + config.max_ttl * 1000 - d.clock.now()) / 1000);
      if (left <= 0) throw new InvalidRequestError('the key has reached the max_ttl of the engine: not renewing');
      return { ttlSeconds: Math.min(asked || left, left) };
    },
  };
}
