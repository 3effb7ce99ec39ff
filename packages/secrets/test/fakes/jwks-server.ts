import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** A key set served over HTTP as identity providers serve theirs (`GET /keys`), with its key rotating on demand. */
export interface JwksServer {
  url: string;
  /** How many times the key set was fetched. */
  fetches: number;
  /** While set, the key set answers 500. */
  failing: boolean;
  sign(claims: Record<string, unknown>): Promise<string>;
  /** Signs with a key of the same kid that the set never published. */
  signWithUnpublishedKey(claims: Record<string, unknown>): Promise<string>;
  /** A new signing key with a new kid replaces the old one in the set. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * `kidPrefix` (default `k`): the key ids are `<prefix>1`, `<prefix>2`… (two servers with different
 * prefixes publish different kids); `tls`: served over HTTPS with that certificate.
 */
export async function startJwksServer(
  o: { kidPrefix?: string; tls?: { key: string; cert: string } } = {},
): Promise<JwksServer> {
  const prefix = o.kidPrefix ?? 'k';
  let generation = 1;
  let key = await newKey(`${prefix}${generation}`);
  const sign = (k: SigningKey, claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: k.kid, typ: 'JWT' }).sign(k.privateKey);
  const state: JwksServer = {
    url: '',
    fetches: 0,
    failing: false,
    sign: (claims) => sign(key, claims),
    signWithUnpublishedKey: async (claims) => sign({ ...(await newKey(key.kid)) }, claims),
    rotate: async () => {
      generation += 1;
      key = await newKey(`${prefix}${generation}`);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const handler: http.RequestListener = (req, res) => {
    if (req.url !== '/keys') {
      res.writeHead(404).end();
      return;
    }
    state.fetches += 1;
    if (state.failing) {
      res.writeHead(500).end('unavailable');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.jwk] }));
  };
  const server = o.tls ? https.createServer({ key: o.tls.key, cert: o.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `${o.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}/keys`;
  return state;
}
