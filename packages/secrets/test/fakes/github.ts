import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small GitHub REST API (v3) for the GitHub auth method: `GET /user`, `/user/orgs`,
 * `/user/teams` (authenticated by `Authorization: Bearer <token>` or `token <token>`; an
 * unknown token gets GitHub's 401 `Bad credentials`), and `/orgs/:org` (public). Listings are
 * paginated as GitHub does (`page`, `per_page`, a `Link` header with `rel="next"`), with at most
 * `pageSize` items per page so tests see several pages. `prefix` serves it below a path, as
 * GitHub Enterprise Server serves `/api/v3/`.
 */
export interface FakeGitHub {
  /** Base URL to configure (`http://127.0.0.1:<port><prefix>/`). */
  baseUrl: string;
  addOrg(login: string, id: number): void;
  /** Renames an organization, keeping its id. */
  renameOrg(id: number, login: string): void;
  /** A user, the token that authenticates as them, their orgs (ids) and teams. */
  addUser(
    token: string,
    login: string,
    orgIds: number[],
    teams?: { name: string; slug: string; orgId: number }[],
  ): void;
  /** Every request seen: method, path with query, Authorization header. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

interface User {
  login: string;
  id: number;
  orgIds: number[];
  teams: { name: string; slug: string; orgId: number }[];
}

export async function startFakeGitHub(options: { pageSize?: number; prefix?: string } = {}): Promise<FakeGitHub> {
  const pageSize = options.pageSize ?? 100;
  const prefix = options.prefix ?? '';
  const orgs = new Map<number, string>();
  const users = new Map<string, User>();
  const requests: FakeGitHub['requests'] = [];

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const orgView = (id: number) => ({ login: orgs.get(id) ?? '', id, url: `https://github.invalid/orgs/${id}` });

  const page = (req: IncomingMessage, res: ServerResponse, url: URL, items: unknown[]) => {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), pageSize);
    const current = Number(url.searchParams.get('page') ?? 1);
    const slice = items.slice((current - 1) * perPage, current * perPage);
    const headers: Record<string, string> = {};
    if (current * perPage < items.length) {
      const next = new URL(url);
      next.searchParams.set('page', String(current + 1));
      headers.link = `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next"`;
    }
    send(res, 200, slice, headers);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const authorization = req.headers.authorization;
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization });
    if (req.method !== 'GET' || !url.pathname.startsWith(`${prefix}/`)) return send(res, 404, { message: 'Not Found' });
    const path = url.pathname.slice(prefix.length);
    const orgMatch = /^\/orgs\/([^/]+)$/.exec(path);
    if (orgMatch) {
      const id = [...orgs].find(([, login]) => login.toLowerCase() === orgMatch[1]?.toLowerCase())?.[0];
      return id === undefined ? send(res, 404, { message: 'Not Found' }) : send(res, 200, orgView(id));
    }
    const token = /^(?:Bearer|token) (.+)$/.exec(authorization ?? '')?.[1];
    const user = token === undefined ? undefined : users.get(token);
    if (!user) return send(res, 401, { message: 'Bad credentials' });
    if (path === '/user') return send(res, 200, { login: user.login, id: user.id, type: 'User' });
    if (path === '/user/orgs') return page(req, res, url, user.orgIds.map(orgView));
    if (path === '/user/teams')
      return page(
        req,
        res,
        url,
        user.teams.map((t) => ({ name: t.name, slug: t.slug, organization: orgView(t.orgId) })),
      );
    send(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}/`,
    addOrg: (login, id) => void orgs.set(id, login),
    renameOrg: (id, login) => void orgs.set(id, login),
    addUser: (token, login, orgIds, teams = []) =>
      void users.set(token, { login, id: 1000 + users.size, orgIds, teams }),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
