import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, exportJWK, jwtVerify, SignJWT } from 'jose';
import { type FakeGoogleCloudState, type FakeInstance, type FakeServiceAccount, newKey } from './google-cloud-state.js';

/**
 * Google Cloud's REST APIs as the official Node SDKs call them, on one local port (every
 * `custom_endpoint`, and the key files' `token_uri`, point here):
 * - OAuth 2.0 `POST /token`: the JWT bearer grant, its RS256 assertion checked against the
 *   issuing account's key (`kid`), `aud` this endpoint; answers a bearer token.
 * - `GET /oauth2/v3/certs`: Google's own signing keys (JWKS), which sign instance identity tokens.
 * - IAM admin `/v1/projects/{p}/serviceAccounts[/{email}[/keys[/{id}]]]`: create, get, delete.
 * - IAM credentials `/v1/projects/-/serviceAccounts/{email}:generateAccessToken` and `:signJwt`.
 * - Resource Manager `/v1/projects/{p}:getIamPolicy`, `:setIamPolicy` (etag checked), `:getAncestry`.
 * - Compute `/compute/v1/projects/{p}/zones/{z}/instances/{name}`, `aggregated/instanceGroups`,
 *   zonal and regional `instanceGroups/{g}/listInstances`.
 * Every API call needs a bearer token this fake issued (401 otherwise); errors are
 * `{"error": {code, message, status}}`. `failWith(status)` makes every call fail.
 */
export interface FakeGoogleCloud {
  endpoint: string;
  state: FakeGoogleCloudState;
  /** A key file (JSON text) for `account`, with a new key and `token_uri` here. */
  keyFile(account: FakeServiceAccount): string;
  /** An instance identity token (`format=full`) for `instance`, signed with Google's key. */
  identityToken(
    instance: FakeInstance,
    claims: { aud: string; iat: number; exp: number },
    header?: object,
  ): Promise<string>;
  /** Every call (or those whose `METHOD path` matches `only`) answers `status`; undefined: back to normal. */
  failWith(status: number | undefined, only?: RegExp): void;
  /** `METHOD path` of each call seen. */
  calls: string[];
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeGoogleCloud(state: FakeGoogleCloudState): Promise<FakeGoogleCloud> {
  const google = newKey();
  const tokens = new Map<string, string>();
  const calls: string[] = [];
  let failure: { status: number; only?: RegExp } | undefined;
  let endpoint = '';

  const issueToken = (email: string) => {
    const token = `ya29.${randomBytes(16).toString('hex')}`;
    tokens.set(token, email);
    return token;
  };
  const accountOr404 = (emailOrId: string) => {
    const account = state.account(decodeURIComponent(emailOrId));
    if (!account) throw new HttpError(404, `Unknown service account ${emailOrId}`);
    return account;
  };
  const accountJson = (a: FakeServiceAccount) => ({
    name: `projects/${a.projectId}/serviceAccounts/${a.email}`,
    projectId: a.projectId,
    uniqueId: a.uniqueId,
    email: a.email,
    displayName: a.displayName,
    description: a.description,
  });
  const instanceJson = (i: FakeInstance) => {
    const zoneUrl = `${endpoint}/compute/v1/projects/${i.project}/zones/${i.zone}`;
    return {
      kind: 'compute#instance',
      id: i.id,
      name: i.name,
      zone: zoneUrl,
      selfLink: `${zoneUrl}/instances/${i.name}`,
      status: 'RUNNING',
      labels: i.labels,
      serviceAccounts: [{ email: i.serviceAccount, scopes: ['https://www.googleapis.com/auth/cloud-platform'] }],
    };
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
    return { access_token: issueToken(String(claims.iss)), expires_in: 3599, token_type: 'Bearer' };
  }

  type Route = [string, RegExp, (m: string[], body: Record<string, unknown>) => unknown];
  const routes: Route[] = [
    [
      'POST',
      /^\/v1\/projects\/([^/]+)\/serviceAccounts$/,
      ([, p], body) => {
        const accountId = String(body.accountId ?? '');
        if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(accountId))
          throw new HttpError(400, `invalid accountId ${accountId}`);
        if (state.accounts.has(`${accountId}@${p}.iam.gserviceaccount.com`)) throw new HttpError(409, 'exists');
        const sa = (body.serviceAccount ?? {}) as { displayName?: string; description?: string };
        return accountJson(state.addServiceAccount(p as string, accountId, sa.displayName, sa.description));
      },
    ],
    ['GET', /^\/v1\/projects\/[^/]+\/serviceAccounts\/([^/:]+)$/, ([, e]) => accountJson(accountOr404(e as string))],
    [
      'DELETE',
      /^\/v1\/projects\/[^/]+\/serviceAccounts\/([^/:]+)$/,
      ([, e]) => {
        state.accounts.delete(accountOr404(e as string).email);
        return {};
      },
    ],
    [
      'POST',
      /^\/v1\/projects\/[^/]+\/serviceAccounts\/([^/:]+)\/keys$/,
      ([, e], body) => {
        const account = accountOr404(e as string);
        if (body.privateKeyType && body.privateKeyType !== 'TYPE_GOOGLE_CREDENTIALS_FILE')
          throw new HttpError(400, 'only TYPE_GOOGLE_CREDENTIALS_FILE here');
        const file = keyFile(account);
        const id = (JSON.parse(file) as { private_key_id: string }).private_key_id;
        return {
          name: `projects/${account.projectId}/serviceAccounts/${account.email}/keys/${id}`,
          privateKeyType: 'TYPE_GOOGLE_CREDENTIALS_FILE',
          keyAlgorithm: 'KEY_ALG_RSA_2048',
          privateKeyData: Buffer.from(file).toString('base64'),
          validAfterTime: new Date().toISOString(),
        };
      },
    ],
    [
      'DELETE',
      /^\/v1\/projects\/[^/]+\/serviceAccounts\/([^/:]+)\/keys\/([^/]+)$/,
      ([, e, id]) => {
        if (!accountOr404(e as string).keys.delete(id as string)) throw new HttpError(404, `no key ${id}`);
        return {};
      },
    ],
    [
      'POST',
      /^\/v1\/projects\/-\/serviceAccounts\/([^/:]+):generateAccessToken$/,
      ([, e], body) => {
        const account = accountOr404(e as string);
        const lifetime = Number.parseInt(String(body.lifetime ?? '3600s'), 10);
        return {
          accessToken: issueToken(account.email),
          expireTime: new Date(Date.now() + lifetime * 1000).toISOString(),
        };
      },
    ],
    [
      'POST',
      /^\/v1\/projects\/-\/serviceAccounts\/([^/:]+):signJwt$/,
      async ([, e], body) => {
        const account = accountOr404(e as string);
        let key = [...account.keys.values()][0];
        if (!key) {
          key = newKey();
          account.keys.set(key.id, key);
        }
        const payload = JSON.parse(String(body.payload ?? '{}')) as Record<string, unknown>;
        const signedJwt = await new SignJWT(payload)
          .setProtectedHeader({ alg: 'RS256', kid: key.id, typ: 'JWT' })
          .sign(key.privateKey);
        return { keyId: key.id, signedJwt };
      },
    ],
    ['POST', /^\/v1\/projects\/([^/:]+):getIamPolicy$/, ([, p]) => state.policy(`projects/${p}`)],
    [
      'POST',
      /^\/v1\/projects\/([^/:]+):setIamPolicy$/,
      ([, p], body) => {
        const current = state.policy(`projects/${p}`);
        const next = (body.policy ?? {}) as { etag?: string; bindings?: { role: string; members: string[] }[] };
        if (next.etag !== undefined && next.etag !== current.etag) throw new HttpError(409, 'etag mismatch');
        const policy = { version: 1, etag: randomBytes(6).toString('base64'), bindings: next.bindings ?? [] };
        state.policies.set(`projects/${p}`, policy);
        return policy;
      },
    ],
    [
      'POST',
      /^\/v1\/projects\/([^/:]+):getAncestry$/,
      ([, p]) => ({
        ancestor: [['project', p as string], ...(state.ancestry.get(p as string) ?? [])].map(([type, id]) => ({
          resourceId: { type, id },
        })),
      }),
    ],
    [
      'GET',
      /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/instances\/([^/]+)$/,
      ([, p, z, n]) => {
        const instance = state.instances.get(`${p}/${z}/${n}`);
        if (!instance) throw new HttpError(404, `The resource 'projects/${p}/zones/${z}/instances/${n}' was not found`);
        return instanceJson(instance);
      },
    ],
    [
      'GET',
      /^\/compute\/v1\/projects\/([^/]+)\/aggregated\/instanceGroups$/,
      ([, p]) => {
        const items = new Map<string, { instanceGroups: object[] }>();
        for (const g of state.groups.filter((x) => x.project === p)) {
          const scope = g.zone ? `zones/${g.zone}` : `regions/${g.region}`;
          const entry = items.get(scope) ?? { instanceGroups: [] };
          entry.instanceGroups.push({ name: g.name, ...(g.zone ? { zone: g.zone } : { region: g.region }) });
          items.set(scope, entry);
        }
        return { kind: 'compute#instanceGroupAggregatedList', items: Object.fromEntries(items) };
      },
    ],
    [
      'POST',
      /^\/compute\/v1\/projects\/([^/]+)\/(zones|regions)\/([^/]+)\/instanceGroups\/([^/]+)\/listInstances$/,
      ([, p, kind, where, name]) => {
        const group = state.groups.find(
          (g) => g.project === p && g.name === name && (kind === 'zones' ? g.zone === where : g.region === where),
        );
        if (!group) throw new HttpError(404, `no instance group ${name}`);
        const items = group.members
          .map((member) => [...state.instances.values()].find((i) => i.project === p && i.name === member))
          .filter((i): i is FakeInstance => i !== undefined)
          .map((i) => ({ instance: instanceJson(i).selfLink, status: 'RUNNING' }));
        return { items };
      },
    ],
  ];

  async function handle(req: IncomingMessage) {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const body = await readBody(req);
    if (failure && (!failure.only || failure.only.test(`${req.method} ${url.pathname}`)))
      throw new HttpError(failure.status, 'injected failure');
    if (req.method === 'POST' && url.pathname === '/token') return tokenGrant(body);
    if (req.method === 'GET' && url.pathname === '/oauth2/v3/certs')
      return { keys: [{ ...(await exportJWK(google.publicKey)), kid: google.id, alg: 'RS256', use: 'sig' }] };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) throw new HttpError(401, 'Request had invalid authentication credentials.');
    for (const [method, pattern, run] of routes) {
      const match = pattern.exec(url.pathname);
      if (match && method === req.method)
        return run([...match], body ? (JSON.parse(body) as Record<string, unknown>) : {});
    }
    throw new HttpError(404, `no route ${req.method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json; charset=UTF-8');
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
    keyFile,
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
