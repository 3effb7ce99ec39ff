import { createPublicKey, type KeyObject } from 'node:crypto';
import { KeyManagementServiceClient } from '@google-cloud/kms';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import type { ManagedKeyBackend, SignOptions } from './managed-key-backend.js';
import { messageOf } from './pkcs11-modules.js';

type ClientOptions = ConstructorParameters<typeof KeyManagementServiceClient>[0];

export interface GcpKmsSettings {
  /** Path of a service-account credentials file; empty: the SDK's application default credentials. */
  credentials: string;
  project: string;
  /** The key ring's location. */
  region: string;
  keyRing: string;
  cryptoKey: string;
  cryptoKeyVersion: string;
  /** The key's algorithm (`RSA_SIGN_PSS_2048_SHA256`, …): it fixes the scheme and the hash. */
  algorithm: string;
  allowGenerateKey: boolean;
  /** Custom endpoint URL (tests): the REST transport is used against it. */
  endpoint: string;
  /** Tests hand in an auth client; otherwise `credentials` or the ambient ones. */
  authClient?: NonNullable<ClientOptions>['authClient'];
}

const ALGORITHM = /^(RSA_SIGN_PSS|RSA_SIGN_PKCS1|EC_SIGN_P256|EC_SIGN_P384)_(?:\d+_)?SHA(256|384|512)$/;
/** New key versions are generated asynchronously; how long to wait for one to be usable. */
const GENERATION_POLLS = 50;

/**
 * A key version in Google Cloud KMS (type `gammackms`) through `@google-cloud/kms`. The key's
 * algorithm decides scheme and hash, so a `test/sign` asking for another is refused (400).
 * Cloud KMS has no verify call; verification uses the public key, like every provider.
 */
export class GcpKmsBackend implements ManagedKeyBackend {
  readonly #client: KeyManagementServiceClient;
  #publicKey: Promise<KeyObject> | undefined;

  constructor(private readonly settings: GcpKmsSettings) {
    const options: ClientOptions = { projectId: settings.project };
    if (settings.credentials) options.keyFilename = settings.credentials;
    if (settings.authClient) options.authClient = settings.authClient;
    if (settings.endpoint) {
      const url = new URL(settings.endpoint);
      Object.assign(options, {
        fallback: true,
        apiEndpoint: url.hostname,
        port: Number(url.port) || (url.protocol === 'http:' ? 80 : 443),
        protocol: url.protocol.replace(':', ''),
      });
    }
    this.#client = new KeyManagementServiceClient(options);
  }

  get #versionName(): string {
    const s = this.settings;
    return this.#client.cryptoKeyVersionPath(s.project, s.region, s.keyRing, s.cryptoKey, s.cryptoKeyVersion);
  }

  async sign(digest: Buffer, options: SignOptions): Promise<Buffer> {
    const [, scheme, bits] = ALGORITHM.exec(this.settings.algorithm) ?? [];
    if (options.hash !== `sha2-${bits}`)
      throw new InvalidRequestError(
        `gammackms key ${this.settings.algorithm} signs only with hash_algorithm sha2-${bits}`,
      );
    if (options.usePss !== (scheme === 'RSA_SIGN_PSS'))
      throw new InvalidRequestError(
        `use_pss must be ${scheme === 'RSA_SIGN_PSS'} for a ${this.settings.algorithm} key`,
      );
    await this.publicKey();
    const [response] = await call(() =>
      this.#client.asymmetricSign({ name: this.#versionName, digest: { [`sha${bits}`]: digest } }),
    );
    return Buffer.from(response.signature as Uint8Array);
  }

  publicKey(): Promise<KeyObject> {
    this.#publicKey ??= this.#findOrCreate();
    this.#publicKey.catch(() => {
      this.#publicKey = undefined;
    });
    return this.#publicKey;
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async #findOrCreate(): Promise<KeyObject> {
    try {
      const [got] = await this.#client.getPublicKey({ name: this.#versionName });
      return createPublicKey(got.pem ?? '');
    } catch (err) {
      if ((err as { code?: number }).code !== 5 && (err as { code?: number }).code !== 404) throw upstream(err);
      if (!this.settings.allowGenerateKey) throw upstream(err);
    }
    await this.#create();
    const [got] = await call(() => this.#client.getPublicKey({ name: this.#versionName }));
    return createPublicKey(got.pem ?? '');
  }

  /** Creates the crypto key in the (existing) key ring and waits until its first version is enabled. */
  async #create(): Promise<void> {
    const s = this.settings;
    await call(() =>
      this.#client.createCryptoKey({
        parent: this.#client.keyRingPath(s.project, s.region, s.keyRing),
        cryptoKeyId: s.cryptoKey,
        cryptoKey: {
          purpose: 'ASYMMETRIC_SIGN',
          versionTemplate: { algorithm: s.algorithm as 'RSA_SIGN_PSS_2048_SHA256' },
        },
      }),
    );
    for (let i = 0; i < GENERATION_POLLS; i++) {
      const [version] = await call(() => this.#client.getCryptoKeyVersion({ name: this.#versionName }));
      if (version.state === 'ENABLED' || (version.state as unknown) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new UpstreamError(`gammackms: key version ${this.#versionName} was not enabled in time`);
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
  return new UpstreamError(`gammackms: ${messageOf(err)}`, { cause: err });
}
