import { readFile } from 'node:fs/promises';
import type { Clock } from '@ward/base';
import { googleAuthClient, ServiceAccountTokenSource } from '../../google/auth-client.js';
import { parseServiceAccountCredentials } from '../../google/credentials.js';
import {
  DEFAULT_IAM_ENDPOINT,
  DEFAULT_TOKEN_ENDPOINT,
  ImpersonatedTokenSource,
} from '../../google/impersonated-token-source.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';

/**
 * The `gsuite` provider's lookups in the Google Workspace directory, as established: a service
 * account (`gsuite_service_account`, its key file's JSON or a path to it) acting for a Workspace
 * administrator (`gsuite_admin_impersonate`, domain-wide delegation) calls the Admin SDK Directory
 * API. `fetch_groups`: the user's groups (`groups?userKey=`, every page), and with
 * `groups_recurse_max_depth` the groups of those groups, each group once. `fetch_user_info`: the
 * user's `user_custom_schemas` (`users/{key}?projection=custom`), each field becoming a claim.
 * Plain HTTPS with the account's bearer token (JWT bearer grant at the key's `token_uri`). Without a
 * key, `impersonate_principal`: the server's Application Default Credentials have IAM Credentials
 * `signJwt` sign the assertion as that account (as established).
 */

export const DEFAULT_ADMIN_ENDPOINT = 'https://admin.googleapis.com';
const SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
].join(' ');
/** Bounds on what one login may make Ward fetch: groups in all, and pages per listing. */
const MAX_GROUPS = 10_000;
const MAX_PAGES = 100;

export interface GsuiteSettings {
  serviceAccount: string;
  impersonatePrincipal: string;
  iamEndpoint: string;
  tokenEndpoint: string;
  adminImpersonate: string;
  fetchGroups: boolean;
  fetchUserInfo: boolean;
  recurseMaxDepth: number;
  userCustomSchemas: string;
  domain: string;
  adminEndpoint: string;
}

export function gsuiteSettings(c: Record<string, unknown>): GsuiteSettings {
  const text = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  return {
    serviceAccount: text('gsuite_service_account'),
    impersonatePrincipal: text('impersonate_principal'),
    iamEndpoint: (text('gsuite_iam_endpoint') || DEFAULT_IAM_ENDPOINT).replace(/\/+$/, ''),
    tokenEndpoint: text('gsuite_token_endpoint') || DEFAULT_TOKEN_ENDPOINT,
    adminImpersonate: text('gsuite_admin_impersonate'),
    fetchGroups: c.fetch_groups === true,
    fetchUserInfo: c.fetch_user_info === true,
    recurseMaxDepth: typeof c.groups_recurse_max_depth === 'number' ? c.groups_recurse_max_depth : 0,
    userCustomSchemas: text('user_custom_schemas'),
    domain: text('domain'),
    adminEndpoint: (text('gsuite_admin_endpoint') || DEFAULT_ADMIN_ENDPOINT).replace(/\/+$/, ''),
  };
}

async function keyJson(serviceAccount: string): Promise<string> {
  if (serviceAccount.trimStart().startsWith('{')) return serviceAccount;
  try {
    return await readFile(serviceAccount, 'utf8');
  } catch (cause) {
    throw new InvalidRequestError(`unable to read gsuite_service_account file: ${(cause as Error).message}`);
  }
}

export class GsuiteDirectory {
  private constructor(
    private readonly s: GsuiteSettings,
    private readonly tokens: { token(): Promise<string> },
  ) {}

  /** As established: the key of `gsuite_service_account` when set, else `impersonate_principal`. */
  static async open(s: GsuiteSettings, clock: Clock): Promise<GsuiteDirectory> {
    if (s.serviceAccount) {
      const credentials = parseServiceAccountCredentials(await keyJson(s.serviceAccount));
      return new GsuiteDirectory(s, new ServiceAccountTokenSource(credentials, clock, SCOPES, s.adminImpersonate));
    }
    if (!s.impersonatePrincipal)
      throw new InvalidRequestError(
        'gsuite_service_account or impersonate_principal is required to fetch groups or user info ' +
          '(Application Default Credentials are not used alone)',
      );
    const target = {
      principal: s.impersonatePrincipal,
      subject: s.adminImpersonate,
      scope: SCOPES,
      iamEndpoint: s.iamEndpoint,
      tokenEndpoint: s.tokenEndpoint,
    };
    return new GsuiteDirectory(s, new ImpersonatedTokenSource(googleAuthClient(undefined, clock), target, clock));
  }

  private async get(path: string, query: URLSearchParams): Promise<Record<string, unknown>> {
    const answer = await requestJson({
      url: `${this.s.adminEndpoint}/admin/directory/v1/${path}?${query.toString()}`,
      headers: { Authorization: `Bearer ${await this.tokens.token()}` },
      service: 'Google Workspace directory',
    });
    const body = answer.body as { error?: { message?: unknown } } | undefined;
    if (answer.status !== 200 || typeof body !== 'object' || body === null)
      throw new UpstreamError(
        `Google Workspace directory answered ${answer.status}${typeof body?.error?.message === 'string' ? `: ${body.error.message}` : ''}`,
      );
    return body as Record<string, unknown>;
  }

  /** The emails of the groups `userKey` is in, and (to the configured depth) of their groups. */
  async groups(userKey: string): Promise<string[]> {
    const visited = new Set<string>();
    await this.search(visited, userKey, this.s.recurseMaxDepth);
    return [...visited];
  }

  private async search(visited: Set<string>, userKey: string, depth: number): Promise<void> {
    const fresh: string[] = [];
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ userKey, fields: 'nextPageToken,groups(email)' });
      if (this.s.domain) query.set('domain', this.s.domain);
      if (pageToken) query.set('pageToken', pageToken);
      const body = await this.get('groups', query);
      for (const group of Array.isArray(body.groups) ? body.groups : []) {
        const email = (group as { email?: unknown }).email;
        if (typeof email !== 'string' || visited.has(email)) continue;
        if (visited.size >= MAX_GROUPS) throw new UpstreamError(`more than ${MAX_GROUPS} Google Workspace groups`);
        visited.add(email);
        fresh.push(email);
      }
      pageToken = typeof body.nextPageToken === 'string' ? body.nextPageToken : '';
      if (!pageToken) break;
    }
    if (depth > 0) for (const email of fresh) await this.search(visited, email, depth - 1);
  }

  /** The fields of the user's `user_custom_schemas`, each by its name (a later schema's field wins). */
  async customClaims(userKey: string): Promise<Record<string, unknown>> {
    const query = new URLSearchParams({
      projection: 'custom',
      customFieldMask: this.s.userCustomSchemas,
      viewType: 'domain_public',
    });
    const body = await this.get(`users/${encodeURIComponent(userKey)}`, query);
    const claims: Record<string, unknown> = {};
    const schemas = body.customSchemas;
    if (typeof schemas !== 'object' || schemas === null) return claims;
    for (const fields of Object.values(schemas))
      if (typeof fields === 'object' && fields !== null)
        for (const [key, value] of Object.entries(fields)) if (key !== '__proto__') claims[key] = value;
    return claims;
  }
}
