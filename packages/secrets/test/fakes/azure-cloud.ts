import { generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import type { AzureCloud } from '../../src/engines/azure/index.js';
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
    expiresInSeconds?: number;
    forged?: boolean;
  }): Promise<string>;
  /** The next `n` role assignments answer 400 PrincipalNotFound, as while a new principal replicates. */
  lagReplication(n: number): void;
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

export interface FakeApp {
  id: string;
  appId: string;
  displayName: string;
  passwords: Map<string, { secretText: string; displayName: string; endDateTime: string }>;
}

const KID = 'fake-tenant-key';

export async function startFakeAzure(tls: TlsIdentity): Promise<FakeAzure> {
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const applications = new Map<string, FakeApp>();
  const servicePrincipals = new Map<string, { id: string; appId: string }>();
  const groups = new Map<string, string>();
  const groupMembers = new Map<string, Set<string>>();
  const roleDefinitions = new Map<string, { id: string; roleName: string; subscriptionId: string }>();
  const roleAssignments = new Map<string, { principalId: string; roleDefinitionId: string; scope: string }>();
  const machines = new Map<string, { location: string; principalIds: string[]; name: string }>();
  const bearerTokens = new Set<string>();
  const failures = new Map<string, number>();
  const hangs = new Map<string, number>();
  let replicationLag = 0;
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
    const auth = String(req.headers.authorization ?? '');
    if (!bearerTokens.has(auth.replace(/^Bearer /, '')))
      return reply(401, {
        error: { code: 'InvalidAuthenticationToken', message: 'Access token is missing or invalid.' },
      });
    const body = raw ? JSON.parse(raw) : {};
    if (service === 'graph') return graph(req.method ?? 'GET', path.slice('/graph/v1.0'.length), url, body, reply);
    if (service === 'arm') return arm(req.method ?? 'GET', path.slice('/arm'.length), url, body, reply);
    return reply(404, { error: { code: 'NotFound', message: path } });
  }

  type Reply = (status: number, body?: unknown) => void;

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
    if (req.method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/token$/.test(path)) {
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

  const appJson = (a: FakeApp) => ({
    id: a.id,
    appId: a.appId,
    displayName: a.displayName,
    passwordCredentials: [...a.passwords].map(([keyId, p]) => ({
      keyId,
      displayName: p.displayName,
      endDateTime: p.endDateTime,
    })),
  });
  const graphError = (reply: Reply, status: number, code: string, message: string) =>
    reply(status, { error: { code, message, innerError: { 'request-id': randomUUID() } } });
  const quoted = (filter: string | null, field: string) =>
    new RegExp(`^${field} eq '((?:[^']|'')*)'$`).exec(filter ?? '')?.[1]?.replaceAll("''", "'");

  function graph(method: string, path: string, url: URL, body: Record<string, unknown>, reply: Reply) {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const [collection, id, action, memberId, ref] = parts;
    if (collection === 'applications') {
      if (method === 'POST' && !id) {
        const app: FakeApp = {
          id: randomUUID(),
          appId: randomUUID(),
          displayName: String(body.displayName),
          passwords: new Map(),
        };
        applications.set(app.id, app);
        return reply(201, appJson(app));
      }
      if (method === 'GET' && !id) {
        const appId = quoted(url.searchParams.get('$filter'), 'appId');
        return reply(200, { value: [...applications.values()].filter((a) => a.appId === appId).map(appJson) });
      }
      const app = id ? applications.get(id) : undefined;
      if (!app) return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
      if (method === 'GET' && !action) return reply(200, appJson(app));
      if (method === 'DELETE' && !action) {
        applications.delete(app.id);
        for (const [spId, sp] of servicePrincipals) if (sp.appId === app.appId) servicePrincipals.delete(spId);
        return reply(204);
      }
      if (method === 'POST' && action === 'addPassword') {
        const keyId = randomUUID();
        const cred = body.passwordCredential as { displayName?: string; endDateTime?: string };
        const secretText = randomBytes(30).toString('base64url');
        app.passwords.set(keyId, {
          secretText,
          displayName: cred?.displayName ?? '',
          endDateTime: cred?.endDateTime ?? '',
        });
        return reply(200, {
          keyId,
          secretText,
          displayName: cred?.displayName,
          endDateTime: cred?.endDateTime,
          hint: secretText.slice(0, 3),
        });
      }
      if (method === 'POST' && action === 'removePassword') {
        if (!app.passwords.delete(String(body.keyId)))
          return graphError(reply, 404, 'Request_ResourceNotFound', 'No password credential with this key id.');
        return reply(204);
      }
    }
    if (collection === 'servicePrincipals') {
      if (method === 'POST' && !id) {
        if (![...applications.values()].some((a) => a.appId === body.appId))
          return graphError(
            reply,
            400,
            'Request_BadRequest',
            'The appId of the service principal does not reference a valid application object.',
          );
        const sp = { id: randomUUID(), appId: String(body.appId) };
        servicePrincipals.set(sp.id, sp);
        return reply(201, sp);
      }
      if (method === 'DELETE' && id && servicePrincipals.delete(id)) return reply(204);
      return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    }
    if (collection === 'groups') {
      if (method === 'GET' && !id) {
        const name = quoted(url.searchParams.get('$filter'), 'displayName');
        return reply(200, {
          value: [...groups].filter(([, n]) => n === name).map(([gid, n]) => ({ id: gid, displayName: n })),
        });
      }
      const members = id ? groupMembers.get(id) : undefined;
      if (!id || !members)
        return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
      if (method === 'GET' && !action) return reply(200, { id, displayName: groups.get(id) });
      if (method === 'POST' && action === 'members' && memberId === '$ref') {
        const member = /directoryObjects\/([^/]+)$/.exec(String(body['@odata.id']))?.[1] ?? '';
        if (!servicePrincipals.has(member))
          return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${member}' does not exist.`);
        if (members.has(member))
          return graphError(reply, 400, 'Request_BadRequest', 'One or more added object references already exist.');
        members.add(member);
        return reply(204);
      }
      if (method === 'DELETE' && action === 'members' && memberId && ref === '$ref') {
        if (!members.delete(memberId)) return graphError(reply, 404, 'Request_ResourceNotFound', 'Not a member.');
        return reply(204);
      }
    }
    return graphError(reply, 400, 'BadRequest', `Unsupported request: ${method} ${path}`);
  }

  function arm(method: string, path: string, url: URL, body: Record<string, unknown>, reply: Reply) {
    const armError = (status: number, code: string, message: string) => reply(status, { error: { code, message } });
    if (!url.searchParams.get('api-version'))
      return armError(400, 'MissingApiVersionParameter', 'api-version is required');
    const defs = /^(\/.*)\/providers\/Microsoft\.Authorization\/roleDefinitions$/.exec(path);
    const defJson = (d: { id: string; roleName: string }) => ({
      id: d.id,
      name: d.id.split('/').pop(),
      type: 'Microsoft.Authorization/roleDefinitions',
      properties: { roleName: d.roleName, type: 'BuiltInRole', permissions: [] },
    });
    if (method === 'GET' && defs) {
      const name = quoted(url.searchParams.get('$filter'), 'roleName');
      const subscription = /^\/subscriptions\/([^/]+)/.exec(defs[1] ?? '')?.[1];
      const found = [...roleDefinitions.values()].filter(
        (d) => d.roleName === name && d.subscriptionId === subscription,
      );
      return reply(200, { value: found.map(defJson) });
    }
    if (method === 'GET' && roleDefinitions.has(path))
      return reply(200, defJson(roleDefinitions.get(path) as { id: string; roleName: string }));
    const assignment = /^(\/.*)\/providers\/Microsoft\.Authorization\/roleAssignments\/([^/]+)$/.exec(path);
    if (assignment && method === 'PUT') {
      const props = (body.properties ?? {}) as { roleDefinitionId?: string; principalId?: string };
      if (!roleDefinitions.has(String(props.roleDefinitionId)))
        return armError(400, 'RoleDefinitionDoesNotExist', 'The specified role definition does not exist.');
      if (replicationLag > 0 || !servicePrincipals.has(String(props.principalId))) {
        replicationLag = Math.max(0, replicationLag - 1);
        return armError(400, 'PrincipalNotFound', `Principal ${props.principalId} does not exist in the directory.`);
      }
      const record = {
        principalId: String(props.principalId),
        roleDefinitionId: String(props.roleDefinitionId),
        scope: assignment[1] ?? '',
      };
      roleAssignments.set(path, record);
      return reply(201, {
        id: path,
        name: assignment[2],
        type: 'Microsoft.Authorization/roleAssignments',
        properties: record,
      });
    }
    if (assignment && method === 'DELETE') {
      const record = roleAssignments.get(path);
      if (!record) return reply(204);
      roleAssignments.delete(path);
      return reply(200, {
        id: path,
        name: assignment[2],
        type: 'Microsoft.Authorization/roleAssignments',
        properties: record,
      });
    }
    const machine = machines.get(path.toLowerCase());
    if (
      method === 'GET' &&
      /\/providers\/Microsoft\.Compute\/(virtualMachines|virtualMachineScaleSets)\//i.test(path)
    ) {
      if (!machine) return armError(404, 'ResourceNotFound', `The Resource '${path}' was not found.`);
      const [first, ...rest] = machine.principalIds;
      return reply(200, {
        id: path,
        name: machine.name,
        location: machine.location,
        identity: {
          type: rest.length ? 'SystemAssigned, UserAssigned' : 'SystemAssigned',
          principalId: first,
          tenantId: 'tenant',
          userAssignedIdentities: Object.fromEntries(
            rest.map((p, i) => [
              `/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/u${i}`,
              { principalId: p, clientId: randomUUID() },
            ]),
          ),
        },
        properties: {},
      });
    }
    return armError(404, 'NotFound', `Unsupported request: ${method} ${path}`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = async (key: KeyObject, t: Parameters<FakeAzure['issueToken']>[0]) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ oid: t.oid, tid: t.tenant, ...(t.groups ? { groups: t.groups } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setIssuer(`https://sts.windows.net/${t.tenant}/`)
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
      replicationLag = n;
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
