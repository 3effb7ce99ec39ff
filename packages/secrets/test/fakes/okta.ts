import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsIdentity } from './tls-identity.js';

/**
 * A small Okta organization speaking the authentication API's wire format over real TLS: primary
 * authentication (`POST /api/v1/authn`), factor verification and push polling
 * (`POST /api/v1/authn/factors/:id/verify` with the state token), and the users API's group
 * listing (`GET /api/v1/users/:id/groups`, `SSWS` token, paged through `Link` headers).
 */
export interface FakeOkta {
  /** The `base_url` to configure (`okta.test:<port>`): the org is `https://<org>.okta.test:<port>`. */
  baseUrl: string;
  addUser(login: string, user: FakeOktaUser): void;
  /** The next `n` requests answer 500 (Okta failing). */
  failNext(n: number): void;
  /** `METHOD path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface FakeOktaUser {
  password: string;
  groups?: string[];
  /** Enrolled factors: an Okta Verify push, or a TOTP (its one valid passcode) of a provider. */
  push?: { result: 'SUCCESS' | 'REJECTED' | 'TIMEOUT'; waits: number; correctAnswer?: number };
  totp?: { provider: 'OKTA' | 'GOOGLE'; passCode: string };
  status?: 'LOCKED_OUT' | 'PASSWORD_EXPIRED';
  /** A forged answer: factor links point at this host instead of the organization. */
  linkHost?: string;
}

export const FAKE_OKTA_API_TOKEN = '00fake-api-token';

export async function startFakeOkta(tls: TlsIdentity): Promise<FakeOkta> {
  const users = new Map<string, FakeOktaUser & { id: string }>();
  const states = new Map<string, { login: string; polls: number }>();
  const requests: string[] = [];
  let failures = 0;
  let port = 0;
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const host = String(req.headers.host ?? '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    requests.push(`${req.method} ${url.pathname}`);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, summary: string) =>
      reply(status, { errorCode: code, errorSummary: summary, errorCauses: [] });
    if (failures > 0) {
      failures--;
      return error(500, 'E0000009', 'Internal Server Error');
    }
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
    const origin = `https://${host}`;
    const factorsOf = (u: FakeOktaUser & { id: string }) => [
      ...(u.push ? [{ id: `push-${u.id}`, factorType: 'push', provider: 'OKTA' }] : []),
      ...(u.totp ? [{ id: `totp-${u.id}`, factorType: 'token:software:totp', provider: u.totp.provider }] : []),
    ];
    const embeddedUser = (u: { id: string }, login: string) => ({ id: u.id, profile: { login } });
    if (req.method === 'POST' && url.pathname === '/api/v1/authn') {
      const user = users.get(String(body.username));
      if (!user || user.password !== body.password) return error(401, 'E0000004', 'Authentication failed');
      const stateToken = randomBytes(12).toString('hex');
      states.set(stateToken, { login: String(body.username), polls: 0 });
      if (user.status) return reply(200, { status: user.status, stateToken });
      const factors = factorsOf(user);
      if (factors.length === 0)
        return reply(200, {
          status: 'SUCCESS',
          sessionToken: 'session',
          _embedded: { user: embeddedUser(user, body.username) },
        });
      return reply(200, {
        status: 'MFA_REQUIRED',
        stateToken,
        _embedded: {
          user: embeddedUser(user, body.username),
          factors: factors.map((f) => ({
            ...f,
            _links: {
              verify: {
                href: `${user.linkHost ? `https://${user.linkHost}` : origin}/api/v1/authn/factors/${f.id}/verify`,
                hints: { allow: ['POST'] },
              },
            },
          })),
        },
      });
    }
    const verify = /^\/api\/v1\/authn\/factors\/(push|totp)-([^/]+)\/verify$/.exec(url.pathname);
    if (req.method === 'POST' && verify) {
      const state = states.get(String(body.stateToken));
      const user = state && users.get(state.login);
      if (!state || !user || user.id !== verify[2]) return error(401, 'E0000011', 'Invalid token provided');
      const success = () =>
        reply(200, {
          status: 'SUCCESS',
          sessionToken: 'session',
          _embedded: { user: embeddedUser(user, state.login) },
        });
      if (verify[1] === 'totp') {
        if (body.passCode !== user.totp?.passCode) return error(403, 'E0000068', 'Invalid Passcode/Answer');
        return success();
      }
      const push = user.push;
      if (!push) return error(404, 'E0000007', 'Not found');
      if (state.polls++ < push.waits)
        return reply(200, {
          status: 'MFA_CHALLENGE',
          stateToken: body.stateToken,
          factorResult: 'WAITING',
          _links: { next: { name: 'poll', href: `${origin}${url.pathname}` } },
          _embedded: {
            factor: {
              id: `push-${user.id}`,
              factorType: 'push',
              ...(push.correctAnswer === undefined
                ? {}
                : { _embedded: { challenge: { correctAnswer: push.correctAnswer } } }),
            },
          },
        });
      if (push.result === 'SUCCESS') return success();
      return reply(200, { status: 'MFA_CHALLENGE', stateToken: body.stateToken, factorResult: push.result });
    }
    const groups = /^\/api\/v1\/users\/([^/]+)\/groups$/.exec(url.pathname);
    if (req.method === 'GET' && groups) {
      if (req.headers.authorization !== `SSWS ${FAKE_OKTA_API_TOKEN}`)
        return error(401, 'E0000011', 'Invalid token provided');
      const user = [...users.values()].find((u) => u.id === groups[1]);
      if (!user) return error(404, 'E0000007', 'Not found: Resource not found');
      // One group per page: every listing spans pages.
      const after = Number(url.searchParams.get('after') ?? 0);
      const names = user.groups ?? [];
      const page = names.slice(after, after + 1).map((name, i) => ({ id: `g${after + i}`, profile: { name } }));
      const next: Record<string, string> =
        after + 1 < names.length ? { link: `<${origin}${url.pathname}?after=${after + 1}>; rel="next"` } : {};
      return reply(200, page, next);
    }
    return error(404, 'E0000022', 'The endpoint does not support the provided HTTP method');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `okta.test:${port}`,
    requests,
    addUser: (login, user) => users.set(login, { ...user, id: `00u${users.size + 1}` }),
    failNext: (n) => {
      failures = n;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
