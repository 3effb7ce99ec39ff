import { generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import type { AzureCloud } from '../../src/engines/azure/index.js';
import { armRoute } from './azure-cloud-arm.js';
import { graphRoute } from './azure-cloud-graph.js';
import type { FakeApp, FakeAzureState, Reply } from './azure-cloud-state.js';
import type { TlsIdentity } from './tls-identity.js';

/**
 * A small Azure cloud over real TLS, speaking the wire formats the real SDKs use: Entra ID (OpenID
 * discovery v1 and v2, the client-credentials token endpoint checking application passwords, the
 * tenant's signing keys), Microsoft Graph v1.0 (applications, addPassword/removePassword, service
 * principals, groups and their members), and Resource Manager (role definitions, role assignments,
 * virtual machines and scale sets). Paths: `/login/…`, `/graph/…`, `/arm/…` on one host.
 */
export interface FakeAzure {
  cloud: AzureCloud;
  /** An application with a service principal and one password: the engine's own identity. */
  addRootApp(appId: string, secret: string): { objectId: string };
  addGroup(name: string): string;
  addRoleDefinition(subscriptionId: string, roleName: string): string;
  addMachine(m: {
    subscriptionId: string;
    resourceGroup: string;
    name: string;
    scaleSet?: boolean;
    location: string;
    principalIds: string[];
  }): void;
  /** A managed identity's access token, signed by the tenant's key (or, `forged`, by another key under the same kid). */
  issueToken(t: {
    tenant: string;
    audience: string;
    oid: string;
    groups?: string[];
    /** Issued by the tenant's v2.0 endpoint (issuer `<login>/<tenant>/v2.0`), as id tokens of v2 apps are. */
    v2?: boolean;
    /** No groups claim but a claim source for it (`_claim_names`, `_claim_sources`): a group overage. */
    overage?: boolean;
    /** More claims (an id token's `email`, say). */
    claims?: Record<string, unknown>;
    expiresInSeconds?: number;
    forged?: boolean;
  }): Promise<string>;
  /** The next `n` role assignments answer 400 PrincipalNotFound, as while a new principal replicates. */
  lagReplication(n: number): void;
  /** Graph and Resource Manager also take the bearer tokens `check` accepts (another issuer's, as a federated one). */
  trustBearer(check: (token: string) => Promise<boolean>): void;
  /** The next `n` requests to `service` get no answer at all (a cloud that hangs). */
  hangNext(service: 'graph' | 'arm' | 'login', n: number): void;
  /** The next `n` requests to `service` answer 403 AuthorizationFailed (a principal lacking rights). */
  failNext(service: 'graph' | 'arm' | 'login', n: number): void;
  applications: Map<string, FakeApp>;
  servicePrincipals: Map<string, { id: string; appId: string }>;
  groupMembers: Map<string, Set<string>>;
  roleAssignments: Map<string, { principalId: string; roleDefinitionId: string; scope: string }>;
  close(): Promise<void>;
}

const KID = 'fake-tenant-key';

export async function startFakeAzure(tls: TlsIdentity): Promise<FakeAzure> {
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const state: FakeAzureState = {
    applications: new Map(),
    servicePrincipals: new Map(),
    groups: new Map(),
    groupMembers: new Map(),
    roleDefinitions: new Map(),
    roleAssignments: new Map(),
    machines: new Map(),
    replicationLag: 0,
  };
  const { applications, servicePrincipals, groups, groupMembers, roleDefinitions, roleAssignments, machines } = state;
  const bearerTokens = new Set<string>();
  const failures = new Map<string, number>();
  const hangs = new Map<string, number>();
  let trusted: ((token: string) => Promise<boolean>) | undefined;
  let base = '';

  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname.replace(/\/{2,}/g, '/');
    const reply = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const service = path.split('/')[1] ?? '';
    const hanging = hangs.get(service) ?? 0;
    if (hanging > 0) {
      hangs.set(service, hanging - 1);
      return;
    }
    const failing = failures.get(service) ?? 0;
    if (failing > 0) {
      failures.set(service, failing - 1);
      return reply(403, { error: { code: 'AuthorizationFailed', message: 'The client does not have authorization' } });
    }
    if (service === 'login') return login(req, path.slice('/login'.length), raw, reply);
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!bearerTokens.has(bearer) && !(await trusted?.(bearer)))
      return reply(401, {
        error: { code: 'InvalidAuthenticationToken', message: 'Access token is missing or invalid.' },
      });
    const body = raw ? JSON.parse(raw) : {};
    if (service === 'graph')
      return graphRoute(state, req.method ?? 'GET', path.slice('/graph/v1.0'.length), url, body, reply);
    if (service === 'arm') return armRoute(state, req.method ?? 'GET', path.slice('/arm'.length), url, body, reply);
    return reply(404, { error: { code: 'NotFound', message: path } });
  }

  function login(req: IncomingMessage, path: string, raw: string, reply: Reply) {
    const m = /^\/([^/]+)(\/v2\.0)?\/\.well-known\/openid-configuration$/.exec(path);
    if (req.method === 'GET' && m) {
      const tenant = m[1] ?? '';
      const v2 = m[2] !== undefined;
      return reply(200, {
        issuer: v2 ? `${base}/login/${tenant}/v2.0` : `https://sts.windows.net/${tenant}/`,
        authorization_endpoint: `${base}/login/${tenant}/oauth2${v2 ? '/v2.0' : ''}/authorize`,
        token_endpoint: `${base}/login/${tenant}/oauth2${v2 ? '/v2.0' : ''}/token`,
        end_session_endpoint: `${base}/login/${tenant}/oauth2${v2 ? '/v2.0' : ''}/logout`,
        jwks_uri: `${base}/login/common/discovery/keys`,
        response_types_supported: ['code', 'id_token', 'token'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (req.method === 'GET' && path === '/common/discovery/keys')
      return reply(200, {
        keys: [{ ...signing.publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'RS256' }],
      });
    if (req.method === 'POST' && /^\/[^/]+\/oauth2(\/v2\.0)?\/token$/.test(path)) {
      const form = new URLSearchParams(raw);
      const app = [...applications.values()].find((a) => a.appId === form.get('client_id'));
      const secret = form.get('client_secret');
      const valid = app && [...app.passwords.values()].some((p) => p.secretText === secret);
      if (form.get('grant_type') !== 'client_credentials' || !valid)
        return reply(401, {
          error: 'invalid_client',
          error_description: 'AADSTS7000215: Invalid client secret provided.',
          error_codes: [7000215],
        });
      const token = randomBytes(24).toString('base64url');
      bearerTokens.add(token);
      return reply(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
    }
    return reply(404, { error: 'not_found' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = async (key: KeyObject, t: Parameters<FakeAzure['issueToken']>[0]) => {
    const now = Math.floor(Date.now() / 1000);
    const overage = {
      _claim_names: { groups: 'src1' },
      _claim_sources: { src1: { endpoint: `${base}/graph/v1.0/users/${t.oid}/getMemberObjects` } },
    };
    return new SignJWT({
      oid: t.oid,
      tid: t.tenant,
      ...(t.groups ? { groups: t.groups } : {}),
      ...(t.overage ? overage : {}),
      ...t.claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setIssuer(t.v2 ? `${base}/login/${t.tenant}/v2.0` : `https://sts.windows.net/${t.tenant}/`)
      .setAudience(t.audience)
      .setSubject(t.oid)
      .setIssuedAt(now - 60)
      .setNotBefore(now - 60)
      .setExpirationTime(now + (t.expiresInSeconds ?? 3600))
      .sign(key);
  };
  return {
    cloud: {
      activeDirectoryEndpoint: `${base}/login/`,
      resourceManagerEndpoint: `${base}/arm/`,
      graphEndpoint: `${base}/graph`,
    },
    addRootApp(appId, secret) {
      const app: FakeApp = { id: randomUUID(), appId, displayName: 'ward-engine', passwords: new Map() };
      app.passwords.set(randomUUID(), { secretText: secret, displayName: 'initial', endDateTime: '' });
      applications.set(app.id, app);
      servicePrincipals.set(randomUUID(), { id: randomUUID(), appId });
      return { objectId: app.id };
    },
    addGroup(name) {
      const id = randomUUID();
      groups.set(id, name);
      groupMembers.set(id, new Set());
      return id;
    },
    addRoleDefinition(subscriptionId, roleName) {
      const id = `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${randomUUID()}`;
      roleDefinitions.set(id, { id, roleName, subscriptionId });
      return id;
    },
    addMachine(m) {
      const kind = m.scaleSet ? 'virtualMachineScaleSets' : 'virtualMachines';
      const id = `/subscriptions/${m.subscriptionId}/resourceGroups/${m.resourceGroup}/providers/Microsoft.Compute/${kind}/${m.name}`;
      machines.set(id.toLowerCase(), { location: m.location, principalIds: m.principalIds, name: m.name });
    },
    issueToken: (t) => sign(t.forged ? forger.privateKey : signing.privateKey, t),
    lagReplication(n) {
      state.replicationLag = n;
    },
    trustBearer(check) {
      trusted = check;
    },
    hangNext(service, n) {
      hangs.set(service, n);
    },
    failNext(service, n) {
      failures.set(service, n);
    },
    applications,
    servicePrincipals,
    groupMembers,
    roleAssignments,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
