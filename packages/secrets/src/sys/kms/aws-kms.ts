import type { KeyObject } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  GetPublicKeyCommand,
  type KeySpec,
  KMSClient,
  NotFoundException,
  SignCommand,
  type SigningAlgorithmSpec,
} from '@aws-sdk/client-kms';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import type { HashAlgorithm, ManagedKeyBackend, SignOptions } from './managed-key-backend.js';
import { messageOf } from './pkcs11-modules.js';

export interface AwsKmsSettings {
  region: string;
  /** Custom endpoint (tests, KMS-compatible services); the SDK's default when empty. */
  endpoint: string;
  /** Both or neither: without them the SDK's default chain (environment, profile, instance role) applies. */
  accessKey: string;
  secretKey: string;
  /** Key id, ARN or `alias/…` (an alias when generating). */
  kmsKey: string;
  keyType: 'RSA' | 'ECDSA';
  keyBits: number;
  curve: string;
  allowGenerateKey: boolean;
}

/** The hash of each digest size KMS signs, by our spelling. */
const KMS_HASH = new Map<HashAlgorithm, '256' | '384' | '512'>([
  ['sha2-256', '256'],
  ['sha2-384', '384'],
  ['sha2-512', '512'],
]);

/** An ECDSA key's hash is fixed by its curve. */
const CURVE_HASH = new Map([
  ['prime256v1', '256'],
  ['secp384r1', '384'],
  ['secp521r1', '512'],
]);

/**
 * A key in AWS KMS (type `alphakms`) through the official SDK. Signs digests
 * (`MessageType: DIGEST`); ECDSA signatures come back DER already.
 */
export class AwsKmsBackend implements ManagedKeyBackend {
  readonly #client: KMSClient;
  #key: Promise<{ keyId: string; publicKey: KeyObject }> | undefined;

  constructor(private readonly settings: AwsKmsSettings) {
    this.#client = new KMSClient({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKey
        ? { credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey } }
        : {}),
      maxAttempts: 1,
    });
  }

  async sign(digest: Buffer, options: SignOptions): Promise<Buffer> {
    const { keyId, publicKey } = await this.#resolve();
    const algorithm = signingAlgorithm(publicKey, options);
    const out = await this.#call(() =>
      this.#client.send(
        new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: algorithm }),
      ),
    );
    return Buffer.from(out.Signature ?? []);
  }

  async publicKey(): Promise<KeyObject> {
    return (await this.#resolve()).publicKey;
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  #resolve() {
    this.#key ??= this.#findOrCreate();
    this.#key.catch(() => {
      this.#key = undefined;
    });
    return this.#key;
  }

  async #findOrCreate() {
    let keyId: string;
    try {
      const described = await this.#client.send(new DescribeKeyCommand({ KeyId: this.settings.kmsKey }));
      keyId = described.KeyMetadata?.KeyId ?? this.settings.kmsKey;
    } catch (err) {
      if (!(err instanceof NotFoundException) || !this.settings.allowGenerateKey) throw upstream(err);
      keyId = await this.#create();
    }
    const got = await this.#call(() => this.#client.send(new GetPublicKeyCommand({ KeyId: keyId })));
    const publicKey = createPublicKey({ key: Buffer.from(got.PublicKey ?? []), format: 'der', type: 'spki' });
    return { keyId, publicKey };
  }

  async #create(): Promise<string> {
    const { keyType, keyBits, curve, kmsKey } = this.settings;
    const spec = (keyType === 'RSA' ? `RSA_${keyBits}` : `ECC_NIST_${curve}`) as KeySpec;
    const created = await this.#call(() =>
      this.#client.send(
        new CreateKeyCommand({ KeySpec: spec, KeyUsage: 'SIGN_VERIFY', Description: 'ward managed key' }),
      ),
    );
    const keyId = created.KeyMetadata?.KeyId ?? '';
    await this.#call(() => this.#client.send(new CreateAliasCommand({ AliasName: kmsKey, TargetKeyId: keyId })));
    return keyId;
  }

  async #call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw upstream(err);
    }
  }
}

function signingAlgorithm(publicKey: KeyObject, options: SignOptions): SigningAlgorithmSpec {
  const bits = KMS_HASH.get(options.hash);
  if (!bits)
    throw new InvalidRequestError(`hash_algorithm ${options.hash} is not supported by alphakms (sha2-256/384/512)`);
  if (publicKey.asymmetricKeyType === 'rsa')
    return `${options.usePss ? 'RSASSA_PSS_SHA_' : 'RSASSA_PKCS1_V1_5_SHA_'}${bits}` as SigningAlgorithmSpec;
  if (options.usePss) throw new InvalidRequestError('use_pss is only valid for RSA keys');
  const curveBits = CURVE_HASH.get(publicKey.asymmetricKeyDetails?.namedCurve ?? '');
  if (curveBits !== bits)
    throw new InvalidRequestError(`alphakms ECDSA keys on this curve sign only with sha2-${curveBits}`);
  return `ECDSA_SHA_${bits}` as SigningAlgorithmSpec;
}

function upstream(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const name = err instanceof Error ? err.name : 'Error';
  return new UpstreamError(`alphakms: ${name}: ${messageOf(err)}`, { cause: err });
}
