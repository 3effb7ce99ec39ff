import { createPublicKey, type KeyObject } from 'node:crypto';
import type { TokenCredential } from '@azure/identity';
import { ClientSecretCredential } from '@azure/identity';
import { CryptographyClient, KeyClient, type KeyVaultKey, type SignatureAlgorithm } from '@azure/keyvault-keys';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { ecdsaRawToDer, type HashAlgorithm, type ManagedKeyBackend, type SignOptions } from './managed-key-backend.js';
import { messageOf } from './pkcs11-modules.js';

export interface AzureKeyVaultSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  storeName: string;
  keyName: string;
  /** DNS suffix of the store: the vault URL is `https://<store_name>.<resource>`. */
  resource: string;
  /** Custom vault URL (tests, sovereign clouds); replaces the one built from store_name and resource. */
  endpoint: string;
  keyBits: number;
  allowGenerateKey: boolean;
  /** Tests hand in a credential; otherwise the client secret of `client_id` in `tenant_id`. */
  credential?: TokenCredential;
}

const JWS_HASH = new Map<HashAlgorithm, string>([
  ['sha2-256', '256'],
  ['sha2-384', '384'],
  ['sha2-512', '512'],
]);

/**
 * A key in Azure Key Vault (type `betakeyvault`) through `@azure/keyvault-keys`. Key Vault signs
 * digests; its ECDSA signatures are JWS `r‖s`, turned into DER here.
 */
export class AzureKeyVaultBackend implements ManagedKeyBackend {
  readonly #credential: TokenCredential;
  readonly #keys: KeyClient;
  readonly #insecure: boolean;
  #key: Promise<{ key: KeyVaultKey; publicKey: KeyObject; crypto: CryptographyClient }> | undefined;

  constructor(private readonly settings: AzureKeyVaultSettings) {
    const url = settings.endpoint || `https://${settings.storeName}.${settings.resource}`;
    this.#insecure = url.startsWith('http:');
    this.#credential =
      settings.credential ?? new ClientSecretCredential(settings.tenantId, settings.clientId, settings.clientSecret);
    this.#keys = new KeyClient(url, this.#credential, this.#clientOptions());
  }

  async sign(digest: Buffer, options: SignOptions): Promise<Buffer> {
    const { publicKey, crypto } = await this.#resolve();
    const bits = JWS_HASH.get(options.hash);
    if (!bits)
      throw new InvalidRequestError(
        `hash_algorithm ${options.hash} is not supported by betakeyvault (sha2-256/384/512)`,
      );
    const isRsa = publicKey.asymmetricKeyType === 'rsa';
    if (!isRsa && options.usePss) throw new InvalidRequestError('use_pss is only valid for RSA keys');
    const algorithm = `${isRsa ? (options.usePss ? 'PS' : 'RS') : 'ES'}${bits}` as SignatureAlgorithm;
    const signed = await call(() => crypto.sign(algorithm, digest));
    return isRsa ? Buffer.from(signed.result) : ecdsaRawToDer(signed.result);
  }

  async publicKey(): Promise<KeyObject> {
    return (await this.#resolve()).publicKey;
  }

  async close(): Promise<void> {}

  #clientOptions() {
    // A plain-HTTP vault URL is only ever a test double; the challenge names the real resource.
    return this.#insecure ? { allowInsecureConnection: true, disableChallengeResourceVerification: true } : {};
  }

  #resolve() {
    this.#key ??= this.#findOrCreate();
    this.#key.catch(() => {
      this.#key = undefined;
    });
    return this.#key;
  }

  async #findOrCreate() {
    const { keyName, keyBits, allowGenerateKey } = this.settings;
    let key: KeyVaultKey;
    try {
      key = await this.#keys.getKey(keyName);
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404 || !allowGenerateKey) throw upstream(err);
      key = await call(() => this.#keys.createRsaKey(keyName, { keySize: keyBits, keyOps: ['sign', 'verify'] }));
    }
    const jwk = key.key ?? {};
    const b64 = (v: Uint8Array | undefined) => Buffer.from(v ?? []).toString('base64url');
    const publicKey = jwk.kty?.startsWith('RSA')
      ? createPublicKey({ key: { kty: 'RSA', n: b64(jwk.n), e: b64(jwk.e) }, format: 'jwk' })
      : createPublicKey({ key: { kty: 'EC', crv: jwk.crv, x: b64(jwk.x), y: b64(jwk.y) }, format: 'jwk' });
    const crypto = new CryptographyClient(key.id ?? '', this.#credential, this.#clientOptions());
    return { key, publicKey, crypto };
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw upstream(err);
  }
}

function upstream(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const code = (err as { code?: string }).code;
  return new UpstreamError(`betakeyvault: ${code ? `${code}: ` : ''}${messageOf(err)}`, { cause: err });
}
