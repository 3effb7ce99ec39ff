import { randomBytes, randomUUID } from 'node:crypto';
import { type FakeApp, type FakeAzureState, quoted, type Reply } from './azure-cloud-state.js';

// Microsoft Graph v1.0 of the fake Azure: applications and their passwords, service principals, groups and
// members, and a user's groups (`users/{id}/getMemberObjects`, where a group overage's claim source points).

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

export function graphRoute(
  state: FakeAzureState,
  method: string,
  path: string,
  url: URL,
  body: Record<string, unknown>,
  reply: Reply,
) {
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
      state.applications.set(app.id, app);
      return reply(201, appJson(app));
    }
    if (method === 'GET' && !id) {
      const appId = quoted(url.searchParams.get('$filter'), 'appId');
      return reply(200, { value: [...state.applications.values()].filter((a) => a.appId === appId).map(appJson) });
    }
    const app = id ? state.applications.get(id) : undefined;
    if (!app) return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    if (method === 'GET' && !action) return reply(200, appJson(app));
    if (method === 'DELETE' && !action) {
      state.applications.delete(app.id);
      for (const [spId, sp] of state.servicePrincipals)
        if (sp.appId === app.appId) state.servicePrincipals.delete(spId);
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
      if (![...state.applications.values()].some((a) => a.appId === body.appId))
        return graphError(
          reply,
          400,
          'Request_BadRequest',
          'The appId of the service principal does not reference a valid application object.',
        );
      const sp = { id: randomUUID(), appId: String(body.appId) };
      state.servicePrincipals.set(sp.id, sp);
      return reply(201, sp);
    }
    if (method === 'DELETE' && id && state.servicePrincipals.delete(id)) return reply(204);
    return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
  }
  if (collection === 'groups') {
    if (method === 'GET' && !id) {
      const name = quoted(url.searchParams.get('$filter'), 'displayName');
      return reply(200, {
        value: [...state.groups].filter(([, n]) => n === name).map(([gid, n]) => ({ id: gid, displayName: n })),
      });
    }
    const members = id ? state.groupMembers.get(id) : undefined;
    if (!id || !members) return graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    if (method === 'GET' && !action) return reply(200, { id, displayName: state.groups.get(id) });
    if (method === 'POST' && action === 'members' && memberId === '$ref') {
      const member = /directoryObjects\/([^/]+)$/.exec(String(body['@odata.id']))?.[1] ?? '';
      if (!state.servicePrincipals.has(member))
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
  if (collection === 'users' && id && method === 'POST' && action === 'getMemberObjects') {
    // The group overage's claim source: the ids of the groups the user is in (directly, as the fake keeps them).
    if (typeof body.securityEnabledOnly !== 'boolean')
      return graphError(reply, 400, 'Request_BadRequest', 'securityEnabledOnly is required.');
    return reply(200, {
      '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#Collection(Edm.String)',
      value: [...state.groupMembers].filter(([, members]) => members.has(id)).map(([gid]) => gid),
    });
  }
  return graphError(reply, 400, 'BadRequest', `Unsupported request: ${method} ${path}`);
}
