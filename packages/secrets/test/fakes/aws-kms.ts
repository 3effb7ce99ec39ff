import {
  createCipheriv,
  createDecipheriv,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDigest } from './digest-signing.js';

/**
 * A small AWS KMS speaking its real wire protocol (`POST /`, `X-Amz-Target: TrentService.<Op>`,
 * JSON 1.1 with base64 blobs, errors as `{"__type", "message"}` with 400) for the real SDK.
 * It holds real keys and returns real signatures, so a wrong digest or algorithm fails
 * verification. Only what managed keys and the `awskms` seal use: DescribeKey, CreateKey,
 * CreateAlias, GetPublicKey, Sign, Encrypt and Decrypt (symmetric keys: AES-256-GCM, the key id
 * inside the ciphertext blob as KMS does, so Decrypt needs no KeyId).
 */
export interface FakeAwsKms {
  endpoint: string;
  /** Adds a key (and optionally points an alias at it, a new alias or an existing one); returns its id. */
  addKey(
    spec: 'RSA_2048' | 'RSA_3072' | 'ECC_NIST_P256' | 'ECC_NIST_P384' | 'SYMMETRIC_DEFAULT',
    alias?: string,
  ): string;
  /** Operations received, in order (`Sign`, `DescribeKey`, …). */
  calls: string[];
  close(): Promise<void>;
}

interface Key {
  id: string;
  spec: string;
  privateKey?: KeyObject;
  publicKey?: KeyObject;
  /** SYMMETRIC_DEFAULT keys. */
  secret?: Buffer;
}

class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const HASH_OF = new Map([
  ['256', 'sha256'],
  ['384', 'sha384'],
  ['512', 'sha512'],
] as const);

function makeKey(spec: string): Omit<Key, 'id' | 'spec'> {
  if (spec === 'SYMMETRIC_DEFAULT') return { secret: randomBytes(32) };
  if (spec.startsWith('RSA_')) return generateKeyPairSync('rsa', { modulusLength: Number(spec.slice(4)) });
  return generateKeyPairSync('ec', { namedCurve: spec === 'ECC_NIST_P384' ? 'P-384' : 'P-256' });
}

export async function startFakeAwsKms(): Promise<FakeAwsKms> {
  const keys = new Map<string, Key>();
  const aliases = new Map<string, string>();
  const calls: string[] = [];
  const addKey = (spec: string, alias?: string) => {
    const id = randomUUID();
    keys.set(id, { id, spec, ...makeKey(spec) });
    if (alias) aliases.set(alias, id);
    return id;
  };
  const find = (ref: string): Key => {
    const id = ref.startsWith('alias/') ? aliases.get(ref) : ref.replace(/^arn:aws:kms:[^:]*:[^:]*:key\//, '');
    const key = id ? keys.get(id) : undefined;
    if (!key) throw new KmsError('NotFoundException', `Key '${ref}' does not exist`);
    return key;
  };
  const metadata = (k: Key) => ({
    KeyId: k.id,
    Arn: `arn:aws:kms:us-east-1:000000000000:key/${k.id}`,
    KeySpec: k.spec,
    KeyUsage: k.secret ? 'ENCRYPT_DECRYPT' : 'SIGN_VERIFY',
    Enabled: true,
    KeyState: 'Enabled',
  });
  const operations = new Map<string, (body: Record<string, string>) => unknown>([
    ['DescribeKey', (b) => ({ KeyMetadata: metadata(find(b.KeyId ?? '')) })],
    ['CreateKey', (b) => ({ KeyMetadata: metadata(find(addKey(b.KeySpec ?? 'SYMMETRIC_DEFAULT'))) })],
    [
      'CreateAlias',
      (b) => {
        aliases.set(b.AliasName ?? '', find(b.TargetKeyId ?? '').id);
        return {};
      },
    ],
    [
      'GetPublicKey',
      (b) => {
        const k = find(b.KeyId ?? '');
        return {
          KeyId: k.id,
          KeySpec: k.spec,
          KeyUsage: 'SIGN_VERIFY',
          PublicKey: k.publicKey?.export({ format: 'der', type: 'spki' }).toString('base64'),
        };
      },
    ],
    ['Sign', (b) => sign(find(b.KeyId ?? ''), b)],
    ['Encrypt', (b) => encrypt(find(b.KeyId ?? ''), b)],
    [
      'Decrypt',
      (b) => {
        const blob = Buffer.from(b.CiphertextBlob ?? '', 'base64');
        const key = keys.get(blob.subarray(0, 36).toString());
        if (!key?.secret) throw new KmsError('InvalidCiphertextException', 'no key made this ciphertext');
        if (b.KeyId && find(b.KeyId).id !== key.id)
          throw new KmsError('IncorrectKeyException', 'the ciphertext was made with another key');
        return { KeyId: arnOf(key), Plaintext: decrypt(key.secret, blob.subarray(36)).toString('base64') };
      },
    ],
  ]);
  const server = createServer((req, res) => void handle(req, res, operations, calls));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    addKey,
    calls,
    close: () => close(server),
  };
}

const arnOf = (k: Key) => `arn:aws:kms:us-east-1:000000000000:key/${k.id}`;

function encrypt(key: Key, b: Record<string, string>) {
  if (!key.secret) throw new KmsError('InvalidKeyUsageException', `${key.spec} keys do not encrypt here`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.secret, iv);
  const sealed = Buffer.concat([cipher.update(Buffer.from(b.Plaintext ?? '', 'base64')), cipher.final()]);
  const blob = Buffer.concat([Buffer.from(key.id), iv, cipher.getAuthTag(), sealed]);
  return { KeyId: arnOf(key), CiphertextBlob: blob.toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
}

function decrypt(secret: Buffer, rest: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, rest.subarray(0, 12));
    decipher.setAuthTag(rest.subarray(12, 28));
    return Buffer.concat([decipher.update(rest.subarray(28)), decipher.final()]);
  } catch {
    throw new KmsError('InvalidCiphertextException', 'the ciphertext does not decrypt');
  }
}

function sign(key: Key, b: Record<string, string>) {
  const m = /^(RSASSA_PSS|RSASSA_PKCS1_V1_5|ECDSA)_SHA_(256|384|512)$/.exec(b.SigningAlgorithm ?? '');
  if (!m) throw new KmsError('ValidationException', `invalid SigningAlgorithm ${b.SigningAlgorithm}`);
  const [, scheme, bits] = m;
  const isRsa = key.spec.startsWith('RSA_');
  if (isRsa === (scheme === 'ECDSA'))
    throw new KmsError('InvalidKeyUsageException', `${b.SigningAlgorithm} is not valid for ${key.spec}`);
  if (b.MessageType !== 'DIGEST') throw new KmsError('ValidationException', 'this fake signs digests only');
  const digest = Buffer.from(b.Message ?? '', 'base64');
  const hash = HASH_OF.get(bits as '256') ?? 'sha256';
  if (digest.length !== Number(bits) / 8)
    throw new KmsError('ValidationException', `Digest is invalid length for algorithm ${b.SigningAlgorithm}.`);
  if (!key.privateKey) throw new KmsError('InvalidKeyUsageException', `${key.spec} keys do not sign`);
  const signature = signDigest(key.privateKey, digest, hash, scheme === 'RSASSA_PSS');
  return { KeyId: key.id, Signature: signature.toString('base64'), SigningAlgorithm: b.SigningAlgorithm };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  operations: Map<string, (body: Record<string, string>) => unknown>,
  calls: string[],
) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const op = String(req.headers['x-amz-target'] ?? '').replace('TrentService.', '');
  calls.push(op);
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  };
  try {
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
      throw new KmsError('UnrecognizedClientException', 'missing SigV4 signature');
    const handler = operations.get(op);
    if (!handler) throw new KmsError('UnknownOperationException', `unknown operation ${op}`);
    reply(200, handler(JSON.parse(Buffer.concat(chunks).toString() || '{}')));
  } catch (err) {
    const e = err instanceof KmsError ? err : new KmsError('KMSInternalException', String(err));
    reply(400, { __type: e.type, message: e.message });
  }
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
