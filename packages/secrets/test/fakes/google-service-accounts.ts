import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';

/**
 * Google's side of service-account JWTs: what IAM's `signJwt` does (an RS256 JWT signed with one
 * of the account's keys, `kid` its key id) and the public listing of the account's keys as X.509
 * certificates, `GET /service_accounts/v1/metadata/x509/<email>` → `{"<kid>": "<PEM>"}` (404 for
 * an unknown account), as www.googleapis.com serves it. Real keys, real signatures.
 */
export interface FakeGoogleServiceAccounts {
  /** Base URL to give as `custom_endpoint.api`. */
  endpoint: string;
  addServiceAccount(email: string): void;
  /** A JWT signed by `email`'s key, as IAM signJwt answers it (`kid` defaults to the account's key). */
  signJwt(email: string, claims: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** Requests seen (paths). */
  requests: string[];
  close(): Promise<void>;
}

interface Account {
  kid: string;
  privateKeyPem: string;
  certificatePem: string;
}

function selfSignedCertificate(email: string): Account {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2040-01-01T00:00:00Z');
  cert.setSubject([{ name: 'commonName', value: email }]);
  cert.setIssuer([{ name: 'commonName', value: email }]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return {
    kid: randomBytes(20).toString('hex'),
    privateKeyPem: privateKey,
    certificatePem: forge.pki.certificateToPem(cert),
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startFakeGoogleServiceAccounts(): Promise<FakeGoogleServiceAccounts> {
  const accounts = new Map<string, Account>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const match = /^\/service_accounts\/v1\/metadata\/x509\/([^/?]+)$/.exec(req.url ?? '');
    const account = match ? accounts.get(decodeURIComponent(match[1] ?? '')) : undefined;
    res.setHeader('content-type', 'application/json; charset=UTF-8');
    if (!account) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: 404, message: 'Not Found' } }));
      return;
    }
    res.end(JSON.stringify({ [account.kid]: account.certificatePem }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    addServiceAccount: (email) => void accounts.set(email, selfSignedCertificate(email)),
    signJwt(email, claims, header = {}) {
      const account = accounts.get(email);
      if (!account) throw new Error(`no service account ${email}`);
      const signed = `${b64url({ alg: 'RS256', typ: 'JWT', kid: account.kid, ...header })}.${b64url(claims)}`;
      const signature = createSign('RSA-SHA256').update(signed).sign(account.privateKeyPem).toString('base64url');
      return `${signed}.${signature}`;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
