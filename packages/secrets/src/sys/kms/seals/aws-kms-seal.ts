import { DecryptCommand, DescribeKeyCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { SealWrapper, WrappedKey } from '../../../core/seal/index.js';
import { UpstreamError } from '../../../logical/errors.js';
import { messageOf } from '../pkcs11-modules.js';

/** What a `seal "awskms"` (`alphakms`) stanza configures (see `server/seal-config.ts`). */
export interface AwsKmsSealOptions {
  region: string;
  /** Without them the SDK's default chain applies (environment, profile, instance role). */
  accessKey?: string;
  secretKey?: string;
  sessionToken?: string;
  /** Key id, ARN or `alias/…`. */
  kmsKeyId: string;
  /** A KMS-compatible endpoint (test doubles, VPC endpoints); the SDK's default when absent. */
  endpoint?: string;
}

/**
 * A `seal "awskms"`: AWS KMS encrypts and decrypts the seal's data keys with a symmetric key,
 * through the official SDK. KMS puts the key into the ciphertext, so Decrypt names none: after
 * an alias is pointed at a new key (or KMS rotates the key's material), old entries still
 * decrypt, and the ones made under another key ARN are re-wrapped after the next unseal.
 */
export class AwsKmsSeal implements SealWrapper {
  readonly storedType = 'alphakms';
  readonly #client: KMSClient;

  constructor(
    readonly type: string,
    private readonly options: AwsKmsSealOptions,
  ) {
    this.#client = new KMSClient({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.accessKey && options.secretKey
        ? {
            credentials: {
              accessKeyId: options.accessKey,
              secretAccessKey: options.secretKey,
              ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
            },
          }
        : {}),
      maxAttempts: 2,
    });
  }

  async wrap(plaintext: Uint8Array): Promise<WrappedKey> {
    const out = await call(() =>
      this.#client.send(new EncryptCommand({ KeyId: this.options.kmsKeyId, Plaintext: plaintext })),
    );
    return { keyId: out.KeyId ?? '', ciphertext: Buffer.from(out.CiphertextBlob ?? []).toString('base64') };
  }

  async unwrap(wrapped: WrappedKey): Promise<Uint8Array> {
    const out = await call(() =>
      this.#client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(wrapped.ciphertext, 'base64') })),
    );
    return new Uint8Array(out.Plaintext ?? []);
  }

  /** The ARN of the key `kms_key_id` names now (an alias may have been pointed elsewhere). */
  async currentKeyId(): Promise<string> {
    const out = await call(() => this.#client.send(new DescribeKeyCommand({ KeyId: this.options.kmsKeyId })));
    return out.KeyMetadata?.Arn ?? out.KeyMetadata?.KeyId ?? '';
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const name = err instanceof Error ? err.name : 'Error';
    throw new UpstreamError(`awskms seal: ${name}: ${messageOf(err)}`, { cause: err });
  }
}
