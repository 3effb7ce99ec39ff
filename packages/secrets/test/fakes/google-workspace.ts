import { HttpError } from './google-cloud-routes.js';

/**
 * Google Workspace's Admin SDK Directory API (`/admin/directory/v1`) of the fake Google: a user's
 * or group's groups (`groups?userKey=`, paged by `maxResults`/`pageToken`, `domain`) and a user with
 * its custom schemas (`users/{key}?projection=custom&customFieldMask=`). As the real API, it answers
 * only a token of a service account acting for a Workspace administrator (domain-wide delegation:
 * the assertion's `sub`) with a directory scope.
 */
export interface FakeWorkspace {
  /** Administrators a service account may act for. */
  admins: Set<string>;
  /** Each group's email and its members' emails (users or groups). */
  groups: Map<string, string[]>;
  /** Each user's custom schemas: schema name to fields. */
  users: Map<string, Record<string, Record<string, unknown>>>;
  /** Groups per page (the API's maxResults default is 200). */
  pageSize: number;
}

export const newWorkspace = (): FakeWorkspace => ({
  admins: new Set(),
  groups: new Map(),
  users: new Map(),
  pageSize: 200,
});

const GROUP_SCOPE = 'https://www.googleapis.com/auth/admin.directory.group.readonly';
const USER_SCOPE = 'https://www.googleapis.com/auth/admin.directory.user.readonly';

/** What the bearer token was granted for. */
export interface TokenGrant {
  subject?: string;
  scopes: string[];
}

/** The answer to a Directory API call, or `undefined` when `path` is not one. */
export function workspaceRoute(w: FakeWorkspace, method: string, url: URL, grant: TokenGrant): unknown {
  const path = url.pathname;
  if (!path.startsWith('/admin/directory/v1/')) return undefined;
  const admin = grant.subject && w.admins.has(grant.subject);
  if (!admin) throw new HttpError(403, 'Not Authorized to access this resource/api');
  if (method === 'GET' && path === '/admin/directory/v1/groups') {
    if (!grant.scopes.includes(GROUP_SCOPE))
      throw new HttpError(403, 'Request had insufficient authentication scopes.');
    const key = (url.searchParams.get('userKey') ?? '').toLowerCase();
    const domain = url.searchParams.get('domain');
    const all = [...w.groups]
      .filter(([email, members]) => members.includes(key) && (!domain || email.endsWith(`@${domain}`)))
      .map(([email]) => email);
    const start = Number(url.searchParams.get('pageToken') ?? '0');
    const page = all.slice(start, start + w.pageSize);
    const next = start + w.pageSize < all.length ? String(start + w.pageSize) : undefined;
    return {
      kind: 'admin#directory#groups',
      ...(page.length > 0 ? { groups: page.map((email) => ({ email })) } : {}),
      ...(next ? { nextPageToken: next } : {}),
    };
  }
  const user = /^\/admin\/directory\/v1\/users\/([^/]+)$/.exec(path);
  if (method === 'GET' && user) {
    if (!grant.scopes.includes(USER_SCOPE)) throw new HttpError(403, 'Request had insufficient authentication scopes.');
    const email = decodeURIComponent(user[1] ?? '').toLowerCase();
    const schemas = w.users.get(email);
    if (!schemas) throw new HttpError(404, 'Resource Not Found: userKey');
    const mask = (url.searchParams.get('customFieldMask') ?? '').split(',').filter(Boolean);
    const custom =
      url.searchParams.get('projection') === 'custom'
        ? Object.fromEntries(Object.entries(schemas).filter(([name]) => mask.includes(name)))
        : undefined;
    return { kind: 'admin#directory#user', primaryEmail: email, ...(custom ? { customSchemas: custom } : {}) };
  }
  throw new HttpError(404, `no route ${method} ${path}`);
}
