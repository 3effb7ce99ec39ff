import { KeyManagementServiceClient } from '@google-cloud/kms';
import type { SealWrapper, WrappedKey } from '../../../core/seal/index.js';
import { UpstreamError } from '../../../logical/errors.js';
import { messageOf } from '../pkcs11-modules.js';

type ClientOptions = ConstructorParameters<typeof KeyManagementServiceClient>[0];

/** What a `seal "gcpckms"` (`gammackms`) stanza configures (see `server/seal-config.ts`). */
export interface GcpKmsSealOptions {
  /** A service-account credentials file; without it the application default credentials. */
  credentials?: string;
  project: string;
  /** The key ring's location. */
  region: string;
  keyRing: string;
  cryptoKey: string;
  /** A custom endpoint URL (test doubles): the REST transport is used against it. */
  endpoint?: string;
  /** Tests hand in an auth client; otherwise `credentials` or the ambient ones. */
  authClient?: NonNullable<ClientOptions>['authClient'];
}

/**
 * A `seal "gcpckms"`: Cloud KMS encrypts the seal's data keys with the crypto key's primary
 * version and decrypts with the version named inside each ciphertext, so after a rotation (a new
 * primary version) old entries still decrypt, and are re-wrapped after the next unseal.
 */
export class GcpKmsSeal implements SealWrapper {
  readonly storedType = 'gammackms';
  readonly #client: KeyManagementServiceClient;

  constructor(
    readonly type: string,
    private readonly options: GcpKmsSealOptions,
  ) {
    const client: ClientOptions = { projectId: options.project };
    if (options.credentials) client.keyFilename = options.credentials;
    if (options.authClient) client.authClient = options.authClient;
    if (options.endpoint) {
      const url = new URL(options.endpoint);
      Object.assign(client, {
        fallback: true,
        apiEndpoint: url.hostname,
        port: Number(url.port) || (url.protocol === 'http:' ? 80 : 443),
        protocol: url.protocol.replace(':', ''),
      });
    }
    this.#client = new KeyManagementServiceClient(client);
  }

  get #keyName(): string {
    const o = this.options;
    return this.#client.cryptoKeyPath(o.project, o.region, o.keyRing, o.cryptoKey);
  }

  async wrap(plaintext: Uint8Array): Promise<WrappedKey> {
    const [out] = await call(() => this.#client.encrypt({ name: this.#keyName, plaintext: Buffer.from(plaintext) }));
    return { keyId: out.name ?? '', ciphertext: Buffer.from(out.ciphertext as Uint8Array).toString('base64') };
  }

  async unwrap(wrapped: WrappedKey): Promise<Uint8Array> {
    const [out] = await call(() =>
      this.#client.decrypt({ name: this.#keyName, ciphertext: Buffer.from(wrapped.ciphertext, 'base64') }),
    );
    return new Uint8Array(out.plaintext as Uint8Array);
  }

  /** The crypto key's primary version. */
  async currentKeyId(): Promise<string> {
    const [key] = await call(() => this.#client.getCryptoKey({ name: this.#keyName }));
    return key.primary?.name ?? '';
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new UpstreamError(`gcpckms seal: ${messageOf(err)}`, { cause: err });
  }
}
