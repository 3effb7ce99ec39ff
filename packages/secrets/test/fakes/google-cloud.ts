import { createSign, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, exportJWK, jwtVerify, SignJWT } from 'jose';
import forge from 'node-forge';
import { googleCloudRoutes, HttpError } from './google-cloud-routes.js';
import {
  type FakeGoogleCloudState,
  type FakeInstance,
  type FakeKey,
  type FakeServiceAccount,
  newKey,
} from './google-cloud-state.js';
import { type FakeWorkspace, newWorkspace, type TokenGrant, workspaceRoute } from './google-workspace.js';

/**
 * Google Cloud's REST APIs as the official Node SDKs call them, on one local port (every
 * `custom_endpoint`, and the key files' `token_uri`, point here):
 * - OAuth 2.0 `POST /token`: the JWT bearer grant, its RS256 assertion checked against the
 *   issuing account's key (`kid`), `aud` this endpoint; answers a bearer token.
 * - `GET /oauth2/v3/certs`: Google's own signing keys (JWKS), which sign instance identity tokens.
 * - `GET /service_accounts/v1/metadata/x509/{email}`: an account's public keys as X.509 certificates.
 * - IAM admin `/v1/projects/{p}/serviceAccounts[/{email}[/keys[/{id}]]]`: create, get, delete.
 * - IAM credentials `/v1/projects/-/serviceAccounts/{email}:generateAccessToken` and `:signJwt`.
 * - Resource Manager `/v1/projects/{p}:getIamPolicy`, `:setIamPolicy` (etag checked), `:getAncestry`.
 * - Compute `/compute/v1/projects/{p}/zones/{z}/instances/{name}`, `aggregated/instanceGroups`,
 *   zonal and regional `instanceGroups/{g}/listInstances`.
 * - The Admin SDK Directory API `/admin/directory/v1/…` (`google-workspace.ts`), for a token whose
 *   assertion named a Workspace administrator (`sub`).
 * - The metadata server's `GET /computeMetadata/v1/instance/service-accounts/default/token` (with
 *   `Metadata-Flavor: Google`), handing out tokens of `metadataAccount`, as on a VM: the
 *   Application Default Credentials of a server started with `GCE_METADATA_HOST` pointing here.
 * Every API call needs a bearer token this fake issued (401 otherwise); errors are
 * `{"error": {code, message, status}}`. `failWith(status)` makes every call fail.
 */
export interface FakeGoogleCloud {
  endpoint: string;
  state: FakeGoogleCloudState;
  /** The Workspace directory the Admin SDK routes serve. */
  workspace: FakeWorkspace;
  /** A key file (JSON text) for `account`, with a new key and `token_uri` here. */
  keyFile(account: FakeServiceAccount): string;
  /** An instance identity token (`format=full`) for `instance`, signed with Google's key. */
  identityToken(
    instance: FakeInstance,
    claims: { aud: string; iat: number; exp: number },
    header?: object,
  ): Promise<string>;
  /**
   * A JWT signed with `email`'s key (its first, made if it has none), as IAM signJwt answers it;
   * `header` overrides the header (`kid`, `alg`).
   */
  signJwt(email: string, claims: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** A bearer token for `email`, as if it had traded a key for one (tests calling the APIs directly). */
  issueToken(email: string): string;
  /** Every call (or those whose `METHOD path` matches `only`) answers `status`; undefined: back to normal. */
  failWith(status: number | undefined, only?: RegExp): void;
  /** `METHOD path` of each call seen. */
  calls: string[];
  /** The service account the metadata server hands tokens of; unset, it answers 404. */
  metadataAccount: string | undefined;
  close(): Promise<void>;
}

const STATUS_NAMES = new Map([
  [400, 'INVALID_ARGUMENT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'PERMISSION_DENIED'],
  [404, 'NOT_FOUND'],
  [409, 'ALREADY_EXISTS'],
  [500, 'INTERNAL'],
  [503, 'UNAVAILABLE'],
]);

/** A self-signed certificate of the key, as Google publishes service account keys. */
function certificateOf(key: FakeKey, email: string): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${key.id.slice(0, 16)}`;
  cert.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2040-01-01T00:00:00Z');
  cert.setSubject([{ name: 'commonName', value: email }]);
  cert.setIssuer([{ name: 'commonName', value: email }]);
  const pem = key.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  cert.sign(forge.pki.privateKeyFromPem(pem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeGoogleCloud(state: FakeGoogleCloudState): Promise<FakeGoogleCloud> {
  const google = newKey();
  const tokens = new Map<string, string>();
  const grants = new Map<string, TokenGrant>();
  const workspace = newWorkspace();
  const calls: string[] = [];
  let failure: { status: number; only?: RegExp } | undefined;
  const metadata: { account?: string | undefined } = {};
  let endpoint = '';

  const issueToken = (email: string) => {
    const token = `ya29.${randomBytes(16).toString('hex')}`;
    tokens.set(token, email);
    return token;
  };
  const keyFile = (account: FakeServiceAccount) => {
    const key = newKey();
    account.keys.set(key.id, key);
    return JSON.stringify({
      type: 'service_account',
      project_id: account.projectId,
      private_key_id: key.id,
      private_key: key.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: account.email,
      client_id: account.uniqueId,
      token_uri: `${endpoint}/token`,
    });
  };

  async function tokenGrant(body: string) {
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      throw new HttpError(400, 'unsupported_grant_type');
    const assertion = form.get('assertion') ?? '';
    let claims: Record<string, unknown>;
    try {
      const kid = decodeProtectedHeader(assertion).kid ?? '';
      const payload = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString()) as {
        iss?: string;
        iat?: number;
      };
      const key = state.account(payload.iss ?? '')?.keys.get(kid);
      if (!key) throw new Error('unknown key');
      ({ payload: claims } = await jwtVerify(assertion, key.publicKey, {
        algorithms: ['RS256'],
        audience: `${endpoint}/token`,
        currentDate: new Date((payload.iat ?? 0) * 1000),
      }));
    } catch {
      throw new HttpError(400, 'invalid_grant');
    }
    const token = issueToken(String(claims.iss));
    grants.set(token, {
      ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}),
      scopes: String(claims.scope ?? '').split(' '),
    });
    return { access_token: token, expires_in: 3599, token_type: 'Bearer' };
  }

  const routes = googleCloudRoutes({ state, endpoint: () => endpoint, issueToken, keyFile });

  async function handle(req: IncomingMessage) {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const body = await readBody(req);
    if (failure && (!failure.only || failure.only.test(`${req.method} ${url.pathname}`)))
      throw new HttpError(failure.status, 'injected failure');
    if (req.method === 'POST' && url.pathname === '/token') return tokenGrant(body);
    const x509 = /^\/service_accounts\/v1\/metadata\/x509\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && x509) {
      const account = state.account(decodeURIComponent(x509[1] ?? ''));
      if (!account) throw new HttpError(404, 'Not Found');
      return Object.fromEntries([...account.keys.values()].map((k) => [k.id, certificateOf(k, account.email)]));
    }
    if (req.method === 'GET' && url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token') {
      if (req.headers['metadata-flavor'] !== 'Google')
        throw new HttpError(403, 'Missing Metadata-Flavor:Google header');
      if (!metadata.account) throw new HttpError(404, 'no service account on this instance');
      return { access_token: issueToken(metadata.account), expires_in: 3599, token_type: 'Bearer' };
    }
    if (req.method === 'GET' && url.pathname === '/oauth2/v3/certs')
      return { keys: [{ ...(await exportJWK(google.publicKey)), kid: google.id, alg: 'RS256', use: 'sig' }] };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) throw new HttpError(401, 'Request had invalid authentication credentials.');
    const directory = workspaceRoute(workspace, req.method ?? 'GET', url, grants.get(bearer) ?? { scopes: [] });
    if (directory !== undefined) return directory;
    for (const [method, pattern, run] of routes) {
      const match = pattern.exec(url.pathname);
      if (match && method === req.method)
        return run([...match], body ? (JSON.parse(body) as Record<string, unknown>) : {});
    }
    throw new HttpError(404, `no route ${req.method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json; charset=UTF-8');
    if (req.url?.startsWith('/computeMetadata/')) res.setHeader('Metadata-Flavor', 'Google');
    handle(req).then(
      (answer) => res.end(JSON.stringify(answer)),
      (err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500;
        res.statusCode = status;
        const message = (err as Error).message;
        if (req.url === '/token') res.end(JSON.stringify({ error: message, error_description: message }));
        else
          res.end(JSON.stringify({ error: { code: status, message, status: STATUS_NAMES.get(status) ?? 'UNKNOWN' } }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    state,
    workspace,
    keyFile,
    issueToken,
    signJwt(email, claims, header = {}) {
      const account = state.account(email);
      if (!account) throw new Error(`no service account ${email}`);
      let key = [...account.keys.values()][0];
      if (!key) {
        key = newKey();
        account.keys.set(key.id, key);
      }
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const signed = `${part({ alg: 'RS256', typ: 'JWT', kid: key.id, ...header })}.${part(claims)}`;
      return `${signed}.${createSign('RSA-SHA256').update(signed).sign(key.privateKey).toString('base64url')}`;
    },
    identityToken: (instance, claims, header = {}) => {
      const account = state.account(instance.serviceAccount);
      return new SignJWT({
        azp: account?.uniqueId,
        email: instance.serviceAccount,
        email_verified: true,
        google: {
          compute_engine: {
            project_id: instance.project,
            project_number: 123456789012,
            zone: instance.zone,
            instance_id: instance.id,
            instance_name: instance.name,
            instance_creation_timestamp: 1700000000,
          },
        },
      })
        .setProtectedHeader({ alg: 'RS256', kid: google.id, typ: 'JWT', ...header })
        .setIssuer('https://accounts.google.com')
        .setSubject(account?.uniqueId ?? '0')
        .setAudience(claims.aud)
        .setIssuedAt(claims.iat)
        .setExpirationTime(claims.exp)
        .sign(google.privateKey);
    },
    failWith: (status, only) => {
      failure = status === undefined ? undefined : { status, only };
    },
    calls,
    get metadataAccount() {
      return metadata.account;
    },
    set metadataAccount(email) {
      metadata.account = email;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
