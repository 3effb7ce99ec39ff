import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { type FakeGoogleCloudState, type FakeInstance, type FakeServiceAccount, newKey } from './google-cloud-state.js';

/** An error answer of the fake: `{"error": {code, message, status}}` with this HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the routes use of the server: its state, its URL, and the tokens and key files it issues. */
export interface RouteContext {
  state: FakeGoogleCloudState;
  endpoint(): string;
  issueToken(email: string): string;
  keyFile(account: FakeServiceAccount): string;
}

export type Route = [string, RegExp, (m: string[], body: Record<string, unknown>) => unknown];

/** The JSON of an instance as Compute Engine answers it (zone and selfLink are URLs). */
export function instanceJson(endpoint: string, i: FakeInstance) {
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
}

/** IAM admin, IAM credentials, Resource Manager and Compute, each `[method, path pattern, handler]`. */
export function googleCloudRoutes(ctx: RouteContext): Route[] {
  const { state, issueToken, keyFile } = ctx;
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
  return [
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
    // IAM policies of projects and organizations (Resource Manager v1), folders (v2) and service accounts (IAM).
    [
      'POST',
      /^\/v[12]\/((?:projects|organizations|folders)\/[^:]+):getIamPolicy$/,
      ([, r]) => state.policy(decodeURIComponent(r as string)),
    ],
    [
      'POST',
      /^\/v[12]\/((?:projects|organizations|folders)\/[^:]+):setIamPolicy$/,
      ([, r], body) => {
        const resource = decodeURIComponent(r as string);
        const current = state.policy(resource);
        const next = (body.policy ?? {}) as { etag?: string; bindings?: { role: string; members: string[] }[] };
        if (next.etag !== undefined && next.etag !== current.etag) throw new HttpError(409, 'etag mismatch');
        const policy = { version: 1, etag: randomBytes(6).toString('base64'), bindings: next.bindings ?? [] };
        state.policies.set(resource, policy);
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
        return instanceJson(ctx.endpoint(), instance);
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
          .map((i) => ({ instance: instanceJson(ctx.endpoint(), i).selfLink, status: 'RUNNING' }));
        return { items };
      },
    ],
  ];
}
