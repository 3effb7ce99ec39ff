import { CodedError } from '@ward/base';
import { PermissionDeniedError, UpstreamError } from '../../logical/errors.js';
import { boundedText } from '../common/bounded-body.js';

/** GitHub's public API; GitHub Enterprise Server lives at `https://<host>/api/v3/` (config `base_url`). */
export const DEFAULT_BASE_URL = 'https://api.github.com/';

/** A request to GitHub that does not answer in this time fails the login with 502. */
const REQUEST_TIMEOUT_MS = 15_000;
/** No listing of orgs or teams is followed beyond this many pages of 100. */
const MAX_PAGES = 50;
/** A larger answer than this is not GitHub's. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface GitHubUser {
  login: string;
  id: number;
}
export interface GitHubOrg {
  login: string;
  id: number;
}
export interface GitHubTeam {
  name: string;
  slug: string;
  organizationId: number;
}

/** Thrown for GitHub's 404 (an organization that does not exist, or is not visible). */
export class GitHubNotFound extends CodedError<'github_not_found'> {
  readonly code = 'github_not_found';
}

/**
 * The four calls of GitHub's REST API (v3) the method needs, as the established method makes
 * them: `GET user`, `user/orgs` and `user/teams` (paginated, `per_page=100`) with the user's
 * token as `Authorization: Bearer`, and `orgs/:org` without one. Every failure is typed: a
 * token GitHub refuses is a 403, anything else GitHub does wrong a 502.
 */
export class GitHubApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token = '',
  ) {}

  async user(): Promise<GitHubUser> {
    const body = await this.#get('user');
    const user = body as Partial<GitHubUser> | null;
    if (typeof user?.login !== 'string' || typeof user.id !== 'number') throw malformed('user');
    return { login: user.login, id: user.id };
  }

  async organization(name: string): Promise<GitHubOrg> {
    const org = (await this.#get(`orgs/${encodeURIComponent(name)}`)) as Partial<GitHubOrg> | null;
    if (typeof org?.login !== 'string' || typeof org.id !== 'number') throw malformed('orgs');
    return { login: org.login, id: org.id };
  }

  async organizations(): Promise<GitHubOrg[]> {
    return (await this.#list('user/orgs')).flatMap((o) => {
      const org = o as Partial<GitHubOrg> | null;
      return typeof org?.login === 'string' && typeof org.id === 'number' ? [{ login: org.login, id: org.id }] : [];
    });
  }

  async teams(): Promise<GitHubTeam[]> {
    return (await this.#list('user/teams')).flatMap((t) => {
      const team = t as { name?: unknown; slug?: unknown; organization?: { id?: unknown } } | null;
      const organizationId = team?.organization?.id;
      if (typeof team?.name !== 'string' || typeof organizationId !== 'number') return [];
      return [{ name: team.name, slug: typeof team.slug === 'string' ? team.slug : team.name, organizationId }];
    });
  }

  /** Every page of a listing: GitHub's `Link: <…>; rel="next"` names the next page number. */
  async #list(path: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let page = 0;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const query = page > 0 ? `?page=${page}&per_page=100` : '?per_page=100';
      const { body, next } = await this.#fetch(`${path}${query}`);
      // An empty answer is an empty page, as GitHub's Go client reads it.
      if (body !== undefined && !Array.isArray(body)) throw malformed(path);
      items.push(...(body ?? []));
      if (next === undefined || next <= page) return items;
      page = next;
    }
    return items;
  }

  async #get(path: string): Promise<unknown> {
    return (await this.#fetch(path)).body;
  }

  async #fetch(path: string): Promise<{ body: unknown; next: number | undefined }> {
    const headers: Record<string, string> = { Accept: 'application/vnd.github.v3+json', 'User-Agent': 'ward' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        headers,
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      throw new UpstreamError(`GitHub request failed: ${(cause as Error).message}`, { cause });
    }
    const text = await boundedText(response, MAX_BODY_BYTES, 'GitHub');
    if (response.status === 401) throw new PermissionDeniedError('GitHub refused the token');
    if (response.status === 404) throw new GitHubNotFound(`GET ${path}: 404 Not Found`);
    if (!response.ok) throw new UpstreamError(`GitHub answered ${response.status} to GET ${path.split('?')[0]}`);
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw malformed(path);
    }
    return { body, next: nextPage(response.headers.get('link')) };
  }
}

function malformed(path: string): UpstreamError {
  return new UpstreamError(`GitHub's answer to GET ${path.split('?')[0]} is not what its API sends`);
}

/** The `page` of the `rel="next"` link, as GitHub paginates. */
function nextPage(link: string | null): number | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="next"/.exec(part);
    if (!match) continue;
    try {
      const page = Number(new URL(match[1] ?? '', DEFAULT_BASE_URL).searchParams.get('page'));
      return Number.isInteger(page) && page > 0 ? page : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
