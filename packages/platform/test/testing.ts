import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import { createDatabase } from '@ward/base/testing';
import { seedDevAdmin } from '../src/cli/dev-seed.js';
import type { Edition, PlatformContext } from '../src/context.js';
import { createMemoryRateLimiter } from '../src/http/rate-limit.js';
import { buildServer } from '../src/http/server.js';
import { createDatabaseRateLimiter, openStore, seedCatalogue } from '../src/store/index.js';

export const ADMIN_TOKEN = 'admin-test-token';
/** Set to a PostgreSQL maintenance-database URL to run every TestPlatform on PostgreSQL. */
export const POSTGRES_ADMIN_URL_ENV = 'WARD_PLATFORM_TEST_POSTGRES';
export const JSONAPI = 'application/vnd.api+json';

export interface ApiResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON documents
  body: any;
}

/** A user created through the API, with a token to act as them. */
export interface TestUser {
  id: string;
  username: string;
  token: string;
}

export interface TestPlatformOptions {
  /**
   * High by default: the fake clock stands still, so every request of a test falls in one
   * rate-limit window.
   */
  rateLimitPerSecond?: number;
  /** A PostgreSQL database to use instead of an in-memory SQLite one. */
  postgresUrl?: string;
}

/**
 * A whole platform on 127.0.0.1, on a free port, over an in-memory database (or the given
 * PostgreSQL one), with a fake clock and seeded randomness; the dev admin's token is ADMIN_TOKEN.
 */
export class TestPlatform {
  readonly clock = new FakeClock('2024-03-01T12:00:00.123Z');
  ctx!: PlatformContext;
  server!: Server;
  baseUrl = '';
  #users = 0;

  static async start(edition: Edition = 'hosted', opts: TestPlatformOptions = {}): Promise<TestPlatform> {
    const p = new TestPlatform();
    const random = new SeededRandom(1);
    // `api-postgres.test.ts` runs the API tests again with this set, each platform on its own database.
    const onServer = process.env[POSTGRES_ADMIN_URL_ENV];
    const postgresUrl = opts.postgresUrl ?? (onServer ? await createDatabase(onServer) : undefined);
    const store = await openStore(postgresUrl ? { postgresUrl } : { sqlitePath: ':memory:' }, random);
    await seedCatalogue(store);
    const limit = opts.rateLimitPerSecond ?? 1_000_000;
    p.ctx = {
      store,
      clock: p.clock,
      random,
      logger: silentLogger,
      edition,
      rateLimiter: postgresUrl ? createDatabaseRateLimiter(store.database, limit) : createMemoryRateLimiter(limit),
    };
    await seedDevAdmin(p.ctx, ADMIN_TOKEN);
    p.server = buildServer(p.ctx);
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    p.baseUrl = `http://127.0.0.1:${(p.server.address() as AddressInfo).port}`;
    return p;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    await this.ctx.store.close();
  }

  /** An API call under /api/v2; `body` is sent as a JSON:API document. */
  async api(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<ApiResult> {
    const headers: Record<string, string> = { accept: JSONAPI };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = JSONAPI;
    const res = await fetch(`${this.baseUrl}/api/v2${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** A new user with one token, made by the admin the way an operator would. */
  async createUser(username = `user${++this.#users}`): Promise<TestUser> {
    const created = await this.api('POST', '/admin/users', {
      token: ADMIN_TOKEN,
      body: { data: { type: 'users', attributes: { username, email: `${username}@example.com` } } },
    });
    if (created.status !== 201) throw new Error(`creating ${username}: ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as string;
    const token = await this.api('POST', `/users/${id}/authentication-tokens`, {
      token: ADMIN_TOKEN,
      body: { data: { type: 'authentication-tokens', attributes: { description: 'test' } } },
    });
    return { id, username, token: token.body.data.attributes.token as string };
  }

  /** An organization owned by the holder of `token`. */
  async createOrganization(token: string, name: string): Promise<ApiResult> {
    const res = await this.api('POST', '/organizations', {
      token,
      body: { data: { type: 'organizations', attributes: { name, email: `billing@${name}.example` } } },
    });
    if (res.status !== 201) throw new Error(`creating ${name}: ${JSON.stringify(res.body)}`);
    return res;
  }

  /** Adds `user` to the organization as a plain member (not an owner). */
  async addMember(ownerToken: string, org: string, user: TestUser): Promise<void> {
    const res = await this.api('POST', `/organizations/${org}/organization-memberships`, {
      token: ownerToken,
      body: { data: { type: 'organization-memberships', attributes: { email: `${user.username}@example.com` } } },
    });
    if (res.status !== 201) throw new Error(`adding ${user.username}: ${JSON.stringify(res.body)}`);
  }
}

/** A minimal browser for the web pages: keeps cookies and does not follow redirects. */
export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async get(path: string) {
    return this.#send('GET', path);
  }

  async post(path: string, form: Record<string, string>) {
    return this.#send('POST', path, new URLSearchParams(form).toString());
  }

  /** The value of `name="authenticity_token"` in a page. */
  static csrfToken(html: string): string {
    const m = /name="authenticity_token" value="([^"]+)"/.exec(html);
    if (!m?.[1]) throw new Error('no CSRF token in the page');
    return m[1];
  }

  /** Signs in with an API token through the sign-in form. */
  async signIn(token: string, returnTo = '/app') {
    const form = await this.get(`/app/session/new?return_to=${encodeURIComponent(returnTo)}`);
    return this.post('/app/session', {
      authenticity_token: WebClient.csrfToken(form.html),
      token,
      return_to: returnTo,
    });
  }

  async #send(method: string, path: string, body?: string) {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq < 0) continue;
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location') };
  }
}
