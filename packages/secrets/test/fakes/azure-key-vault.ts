import { constants, generateKeyPairSync, type KeyObject, privateDecrypt, publicEncrypt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDigest } from './digest-signing.js';

/**
 * A small Azure Key Vault (keys data plane) speaking its real wire format to the real SDK:
 * the bearer challenge (a request without a token gets 401 and `WWW-Authenticate`), JWK key
 * bundles with base64url members, `POST …/sign` taking a base64url digest. Real keys, real
 * signatures (ECDSA as JWS r‖s, as Key Vault answers). Only: get key, create key, sign, and
 * (the `azurekeyvault` seal) `wrapkey`/`unwrapkey` with RSA-OAEP-256. Adding a key under a name
 * it has adds a version; older versions stay usable by their kid.
 */
export interface FakeAzureKeyVault {
  /** The vault URL to give the client. */
  url: string;
  addKey(name: string, kind: 'RSA' | 'EC'): void;
  close(): Promise<void>;
}

interface Key {
  name: string;
  version: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const HASH = new Map([
  ['256', 'sha256'],
  ['384', 'sha384'],
  ['512', 'sha512'],
] as const);

export async function startFakeAzureKeyVault(): Promise<FakeAzureKeyVault> {
  const keys = new Map<string, Key>();
  /** Every version, by `name/version`. */
  const versions = new Map<string, Key>();
  const addKey = (name: string, kind: 'RSA' | 'EC', bits = 2048) => {
    const pair =
      kind === 'RSA'
        ? generateKeyPairSync('rsa', { modulusLength: bits })
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = { name, version: `v${versions.size + 1}`, ...pair };
    keys.set(name, key);
    versions.set(`${name}/${key.version}`, key);
  };
  let base = '';
  const bundle = (k: Key) => {
    const jwk = k.publicKey.export({ format: 'jwk' });
    return {
      key: {
        kid: `${base}/keys/${k.name}/${k.version}`,
        key_ops: ['sign', 'verify', 'wrapKey', 'unwrapKey'],
        ...jwk,
        kty: jwk.kty,
      },
      attributes: { enabled: true, created: 1_700_000_000, updated: 1_700_000_000, recoveryLevel: 'Purgeable' },
    };
  };
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) {
      const challenge =
        'Bearer authorization="https://login.microsoftonline.com/tenant", resource="https://vault.azure.net"';
      return reply(401, { error: { code: 'Unauthorized', message: 'no token' } }, { 'www-authenticate': challenge });
    }
    const path = new URL(req.url ?? '/', base).pathname.split('/').filter(Boolean);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
    const [, name = '', third, fourth] = path;
    if (path[0] !== 'keys') return reply(404, { error: { code: 'NotFound', message: 'no such path' } });
    if (req.method === 'POST' && third === 'create') {
      addKey(name, String(body.kty).startsWith('EC') ? 'EC' : 'RSA', Number(body.key_size ?? 2048));
      return reply(200, bundle(keys.get(name) as Key));
    }
    const key = (third && versions.get(`${name}/${third}`)) || keys.get(name);
    if (!key)
      return reply(404, {
        error: { code: 'KeyNotFound', message: `A key with (name/id) ${name} was not found in this key vault.` },
      });
    if (req.method === 'GET') return reply(200, bundle(key));
    if (req.method === 'POST' && fourth === 'sign') {
      const m = /^(PS|RS|ES)(256|384|512)$/.exec(String(body.alg));
      const digest = Buffer.from(String(body.value), 'base64url');
      if (!m || digest.length !== Number(m[2]) / 8)
        return reply(400, { error: { code: 'BadParameter', message: `invalid alg ${body.alg} or digest length` } });
      if ((m[1] === 'ES') !== (key.privateKey.asymmetricKeyType === 'ec'))
        return reply(400, { error: { code: 'BadParameter', message: `${body.alg} does not suit the key` } });
      const der = signDigest(key.privateKey, digest, HASH.get(m[2] as '256') ?? 'sha256', m[1] === 'PS');
      const value = m[1] === 'ES' ? derToRaw(der, 32) : der;
      return reply(200, { kid: bundle(key).key.kid, value: value.toString('base64url') });
    }
    if (req.method === 'POST' && (fourth === 'wrapkey' || fourth === 'unwrapkey')) {
      if (body.alg !== 'RSA-OAEP-256')
        return reply(400, {
          error: { code: 'BadParameter', message: `this fake wraps with RSA-OAEP-256, not ${body.alg}` },
        });
      const oaep = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' };
      const value = Buffer.from(String(body.value), 'base64url');
      try {
        const out =
          fourth === 'wrapkey'
            ? publicEncrypt({ key: key.publicKey, ...oaep }, value)
            : privateDecrypt({ key: key.privateKey, ...oaep }, value);
        return reply(200, { kid: bundle(key).key.kid, value: out.toString('base64url') });
      } catch {
        return reply(400, { error: { code: 'BadParameter', message: 'The parameter is incorrect.' } });
      }
    }
    return reply(405, { error: { code: 'BadRequest', message: 'unsupported operation' } });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, addKey, close: () => close(server) };
}

/** DER ECDSA-Sig-Value → JWS r‖s of `size`-byte halves. */
function derToRaw(der: Buffer, size: number): Buffer {
  let offset = der[1] === 0x81 ? 3 : 2;
  const part = () => {
    const length = der[offset + 1] ?? 0;
    const value = der.subarray(offset + 2, offset + 2 + length);
    offset += 2 + length;
    const trimmed = value.subarray(Math.max(0, value.length - size));
    return Buffer.concat([Buffer.alloc(size - trimmed.length), trimmed]);
  };
  return Buffer.concat([part(), part()]);
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
