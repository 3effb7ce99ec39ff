import { createCipheriv, createDecipheriv, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDigest } from './digest-signing.js';

/**
 * A small Google Cloud KMS speaking the REST form of its API (what `@google-cloud/kms` sends with
 * `fallback: true`): `GET /v1/<version>/publicKey`, `POST /v1/<version>:asymmetricSign`,
 * `POST /v1/<keyRing>/cryptoKeys?cryptoKeyId=`, `GET /v1/<version>`, enums as numbers
 * (`$alt=json;enum-encoding=int`), errors as `{"error": {code, message, status}}`. Real keys,
 * real signatures (PSS salt = digest length, ECDSA DER). Symmetric keys (the `gcpckms` seal):
 * `GET /v1/<cryptoKey>`, `POST /v1/<cryptoKey>:encrypt` with the primary version and
 * `:decrypt` with the version the ciphertext names (AES-256-GCM).
 */
export interface FakeGcpKms {
  endpoint: string;
  /** Adds version 1 of a crypto key in `keyRing` (a key ring path: projects/…/keyRings/…). */
  addKey(keyRing: string, cryptoKey: string, algorithm: string): void;
  /** Adds a version of a symmetric crypto key (version 1 the first time) and makes it primary: a rotation. */
  rotateSymmetricKey(keyRing: string, cryptoKey: string): void;
  close(): Promise<void>;
}

/** Enum numbers of the signing algorithms (google.cloud.kms.v1.CryptoKeyVersion.CryptoKeyVersionAlgorithm). */
const ALGORITHMS = new Map([
  ['RSA_SIGN_PSS_2048_SHA256', 2],
  ['RSA_SIGN_PSS_3072_SHA256', 3],
  ['RSA_SIGN_PSS_4096_SHA256', 4],
  ['RSA_SIGN_PKCS1_2048_SHA256', 5],
  ['RSA_SIGN_PKCS1_3072_SHA256', 6],
  ['RSA_SIGN_PKCS1_4096_SHA256', 7],
  ['EC_SIGN_P256_SHA256', 12],
  ['EC_SIGN_P384_SHA384', 13],
  ['RSA_SIGN_PSS_4096_SHA512', 15],
  ['RSA_SIGN_PKCS1_4096_SHA512', 16],
]);
const ENABLED = 1;

interface Version {
  algorithm: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

function makeVersion(algorithm: string): Version {
  const rsa = /_(\d{4})_/.exec(algorithm);
  const pair = rsa
    ? generateKeyPairSync('rsa', { modulusLength: Number(rsa[1]) })
    : generateKeyPairSync('ec', { namedCurve: algorithm.includes('P384') ? 'P-384' : 'P-256' });
  return { algorithm, ...pair };
}

class GcpError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** A symmetric crypto key: its versions' AES keys, the last one primary. */
type SymmetricKey = Buffer[];

function seal(secret: Buffer, version: number, plaintext: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(version);
  return Buffer.concat([head, iv, cipher.getAuthTag(), sealed]);
}

function open(key: SymmetricKey, ciphertext: Buffer): Buffer {
  const secret = key[ciphertext.readUInt32BE(0) - 1];
  try {
    if (!secret) throw new Error('no such version');
    const decipher = createDecipheriv('aes-256-gcm', secret, ciphertext.subarray(4, 16));
    decipher.setAuthTag(ciphertext.subarray(16, 32));
    return Buffer.concat([decipher.update(ciphertext.subarray(32)), decipher.final()]);
  } catch {
    throw new GcpError(400, 'INVALID_ARGUMENT', 'Decryption failed: the ciphertext is invalid.');
  }
}

export async function startFakeGcpKms(): Promise<FakeGcpKms> {
  const versions = new Map<string, Version>();
  const symmetric = new Map<string, SymmetricKey>();
  const rotateSymmetricKey = (keyRing: string, cryptoKey: string) => {
    const name = `${keyRing}/cryptoKeys/${cryptoKey}`;
    symmetric.set(name, [...(symmetric.get(name) ?? []), randomBytes(32)]);
  };
  const findSymmetric = (name: string) => {
    const key = symmetric.get(name);
    if (!key) throw new GcpError(404, 'NOT_FOUND', `CryptoKey ${name} not found.`);
    return key;
  };
  const addKey = (keyRing: string, cryptoKey: string, algorithm: string) => {
    versions.set(`${keyRing}/cryptoKeys/${cryptoKey}/cryptoKeyVersions/1`, makeVersion(algorithm));
  };
  const find = (name: string) => {
    const v = versions.get(name);
    if (!v) throw new GcpError(404, 'NOT_FOUND', `CryptoKeyVersion ${name} not found.`);
    return v;
  };
  const route = (method: string, url: URL, body: Record<string, unknown>): unknown => {
    const path = decodeURIComponent(url.pathname.replace(/^\/v1\//, ''));
    if (method === 'GET' && path.endsWith('/publicKey')) {
      const name = path.slice(0, -'/publicKey'.length);
      const v = find(name);
      const pem = v.publicKey.export({ format: 'pem', type: 'spki' }).toString();
      return { pem, algorithm: ALGORITHMS.get(v.algorithm), name, protectionLevel: 1 };
    }
    if (method === 'POST' && path.endsWith(':encrypt')) {
      const name = path.slice(0, -':encrypt'.length);
      const key = findSymmetric(name);
      const ciphertext = seal(key.at(-1) as Buffer, key.length, Buffer.from(String(body.plaintext ?? ''), 'base64'));
      return { name: `${name}/cryptoKeyVersions/${key.length}`, ciphertext: ciphertext.toString('base64') };
    }
    if (method === 'POST' && path.endsWith(':decrypt')) {
      const key = findSymmetric(path.slice(0, -':decrypt'.length));
      return { plaintext: open(key, Buffer.from(String(body.ciphertext ?? ''), 'base64')).toString('base64') };
    }
    if (method === 'GET' && symmetric.has(path)) {
      const primary = { name: `${path}/cryptoKeyVersions/${symmetric.get(path)?.length}`, state: ENABLED };
      return { name: path, purpose: 1, primary };
    }
    if (method === 'POST' && path.endsWith(':asymmetricSign')) {
      const name = path.slice(0, -':asymmetricSign'.length);
      const v = find(name);
      const bits = /SHA(256|384|512)$/.exec(v.algorithm)?.[1] ?? '256';
      const b64 = (body.digest as Record<string, string> | undefined)?.[`sha${bits}`];
      if (!b64)
        throw new GcpError(400, 'INVALID_ARGUMENT', `The digest type must match the key algorithm (sha${bits}).`);
      const hash = `sha${bits}` as 'sha256';
      const signature = signDigest(
        v.privateKey,
        Buffer.from(b64, 'base64'),
        hash,
        v.algorithm.startsWith('RSA_SIGN_PSS'),
      );
      return { signature: signature.toString('base64'), name, protectionLevel: 1 };
    }
    if (method === 'POST' && path.endsWith('/cryptoKeys')) {
      const template = body.versionTemplate as { algorithm?: string | number } | undefined;
      const algorithm =
        typeof template?.algorithm === 'number'
          ? [...ALGORITHMS].find(([, n]) => n === template.algorithm)?.[0]
          : template?.algorithm;
      if (!algorithm || !ALGORITHMS.has(algorithm))
        throw new GcpError(400, 'INVALID_ARGUMENT', 'unsupported algorithm');
      const id = url.searchParams.get('cryptoKeyId') ?? '';
      addKey(path.slice(0, -'/cryptoKeys'.length), id, algorithm);
      return { name: `${path}/${id}`, purpose: 5, versionTemplate: { algorithm: ALGORITHMS.get(algorithm) } };
    }
    if (method === 'GET' && path.includes('/cryptoKeyVersions/')) {
      const v = find(path);
      return { name: path, state: ENABLED, algorithm: ALGORITHMS.get(v.algorithm) };
    }
    throw new GcpError(404, 'NOT_FOUND', `no route ${method} ${url.pathname}`);
  };
  const server = createServer((req, res) => void handle(req, res, route));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, addKey, rotateSymmetricKey, close: () => close(server) };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  route: (method: string, url: URL, body: Record<string, unknown>) => unknown,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  try {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer '))
      throw new GcpError(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential.');
    const text = Buffer.concat(chunks).toString();
    reply(200, route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://fake'), text ? JSON.parse(text) : {}));
  } catch (err) {
    const e = err instanceof GcpError ? err : new GcpError(500, 'INTERNAL', String(err));
    reply(e.code, { error: { code: e.code, message: e.message, status: e.status } });
  }
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
