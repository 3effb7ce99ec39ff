import { ClientSecretCredential, type TokenCredential } from '@azure/identity';
import { CryptographyClient, KeyClient } from '@azure/keyvault-keys';
import type { SealWrapper, WrappedKey } from '../../../core/seal/index.js';
import { UpstreamError } from '../../../logical/errors.js';
import { messageOf } from '../pkcs11-modules.js';

/** What a `seal "azurekeyvault"` (`betakeyvault`) stanza configures (see `server/seal-config.ts`). */
export interface AzureKeyVaultSealOptions {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  vaultName: string;
  keyName: string;
  /** DNS suffix of the vault: its URL is `https://<vault_name>.<resource>`. */
  resource: string;
  /** The vault's URL instead (sovereign clouds, test doubles). */
  endpoint?: string;
  /** Tests hand in a credential; otherwise the client secret of `client_id` in `tenant_id`. */
  credential?: TokenCredential;
}

const ALGORITHM = 'RSA-OAEP-256';

/**
 * A `seal "azurekeyvault"`: Key Vault wraps the seal's data keys with the latest version of an
 * RSA key (RSA-OAEP-256) and unwraps with the version each entry names, so a new key version (a
 * rotation) leaves old entries readable until they are re-wrapped after the next unseal.
 */
export class AzureKeyVaultSeal implements SealWrapper {
  readonly storedType = 'betakeyvault';
  readonly #credential: TokenCredential;
  readonly #keys: KeyClient;
  readonly #clientOptions: ConstructorParameters<typeof KeyClient>[2];

  constructor(
    readonly type: string,
    private readonly options: AzureKeyVaultSealOptions,
  ) {
    const url = options.endpoint || `https://${options.vaultName}.${options.resource}`;
    // A plain-HTTP vault URL is only ever a test double; its challenge names the real resource.
    this.#clientOptions = url.startsWith('http:')
      ? { allowInsecureConnection: true, disableChallengeResourceVerification: true }
      : {};
    this.#credential =
      options.credential ?? new ClientSecretCredential(options.tenantId, options.clientId, options.clientSecret);
    this.#keys = new KeyClient(url, this.#credential, this.#clientOptions);
  }

  async wrap(plaintext: Uint8Array): Promise<WrappedKey> {
    const keyId = await this.currentKeyId();
    const out = await call(() => this.#crypto(keyId).wrapKey(ALGORITHM, plaintext));
    return { keyId: out.keyID ?? keyId, ciphertext: Buffer.from(out.result).toString('base64') };
  }

  async unwrap(wrapped: WrappedKey): Promise<Uint8Array> {
    const out = await call(() =>
      this.#crypto(wrapped.keyId).unwrapKey(ALGORITHM, Buffer.from(wrapped.ciphertext, 'base64')),
    );
    return new Uint8Array(out.result);
  }

  /** The id (URL with version) of the key's latest version. */
  async currentKeyId(): Promise<string> {
    const key = await call(() => this.#keys.getKey(this.options.keyName));
    if (!key.id) throw new UpstreamError(`azurekeyvault seal: key ${this.options.keyName} has no id`);
    return key.id;
  }

  async close(): Promise<void> {}

  #crypto(keyId: string): CryptographyClient {
    return new CryptographyClient(keyId, this.#credential, this.#clientOptions);
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new UpstreamError(`azurekeyvault seal: ${code ? `${code}: ` : ''}${messageOf(err)}`, { cause: err });
  }
}
