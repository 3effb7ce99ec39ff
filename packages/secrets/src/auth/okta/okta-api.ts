import { type Dispatcher, request } from 'undici';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';

// Okta is reached through its REST API with undici rather than the official Okta Node SDK: that
// SDK is made for administration (users, groups, apps) and has no client for the authentication
// API (`/api/v1/authn` and its factor verification) that a password-and-MFA login needs.

const TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_GROUP_PAGES = 50;

/** One MFA factor offered in an `MFA_REQUIRED` answer. */
export interface OktaFactor {
  id: string;
  factorType: string;
  provider: string;
  verifyHref: string;
}

/** What `/api/v1/authn` and factor verification answer, narrowed to what a login reads. */
export interface AuthnState {
  status: string;
  stateToken: string;
  userId: string;
  factors: OktaFactor[];
  /** A push factor's answer while it waits (`WAITING`, `REJECTED`, `TIMEOUT`), else ''. */
  factorResult: string;
  /** Where to poll a waiting push. */
  pollHref: string;
  /** The number a push with number matching shows (its `correctAnswer`). */
  correctAnswer?: number;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  link: string;
  /** A listing's items, when the body is a JSON array. */
  list?: unknown[];
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The REST API of one Okta organization; refuses to follow links that leave it. */
export class OktaApi {
  readonly #origin: string;
  readonly #dispatcher: Dispatcher | undefined;

  constructor(orgUrl: string, dispatcher?: Dispatcher) {
    this.#origin = new URL(orgUrl).origin;
    this.#dispatcher = dispatcher;
  }

  /** Primary authentication: `POST /api/v1/authn`. A refused password is a 400. */
  async authn(username: string, password: string): Promise<AuthnState> {
    const a = await this.#call('POST', `${this.#origin}/api/v1/authn`, { username, password });
    return this.#state(a);
  }

  /** Verifies (or, for a push, polls) a factor: `POST <factor's verify link>`. A wrong passcode is a 400. */
  async verify(href: string, stateToken: string, passCode?: string): Promise<AuthnState> {
    const body = passCode === undefined ? { stateToken } : { stateToken, passCode };
    return this.#state(await this.#call('POST', this.#own(href), body));
  }

  /** The names of a user's Okta groups (`GET /api/v1/users/:id/groups`, every page). */
  async groupsOf(userId: string, apiToken: string): Promise<string[]> {
    const names: string[] = [];
    let url = `${this.#origin}/api/v1/users/${encodeURIComponent(userId)}/groups`;
    for (let page = 0; page < MAX_GROUP_PAGES && url; page++) {
      const a = await this.#call('GET', url, undefined, { authorization: `SSWS ${apiToken}` });
      if (a.status !== 200) throw new UpstreamError(`Okta answered ${a.status} for the user's groups: ${summary(a)}`);
      const list = a.list ?? [];
      for (const g of list) names.push(str(obj(obj(g).profile).name));
      const next = /<([^>]+)>;\s*rel="next"/.exec(a.link)?.[1];
      url = next ? this.#own(next) : '';
    }
    return names.filter((n) => n !== '');
  }

  #state(a: Answer): AuthnState {
    if (a.status === 401 || a.status === 403) throw new InvalidRequestError(`Okta auth failed: ${summary(a)}`);
    if (a.status !== 200) throw new UpstreamError(`Okta answered ${a.status}: ${summary(a)}`);
    const embedded = obj(a.body._embedded);
    const factor = obj(embedded.factor);
    const links = obj(a.body._links);
    const answer = obj(obj(factor._embedded).challenge).correctAnswer;
    return {
      status: str(a.body.status),
      stateToken: str(a.body.stateToken),
      userId: str(obj(embedded.user).id),
      factors: (Array.isArray(embedded.factors) ? embedded.factors : []).map((f) => ({
        id: str(obj(f).id),
        factorType: str(obj(f).factorType),
        provider: str(obj(f).provider),
        verifyHref: str(obj(obj(obj(f)._links).verify).href),
      })),
      factorResult: str(a.body.factorResult),
      pollHref: str(obj(links.next).href),
      ...(typeof answer === 'number' ? { correctAnswer: answer } : {}),
    };
  }

  /** A link Okta gave, only if it stays in this organization (a forged answer must not aim requests elsewhere). */
  #own(href: string): string {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new UpstreamError('Okta answered an invalid link');
    }
    if (url.origin !== this.#origin) throw new UpstreamError('Okta answered a link outside the organization');
    return url.href;
  }

  async #call(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.#dispatcher,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (cause) {
      throw new UpstreamError(`Okta unreachable: ${(cause as Error).message}`, { cause });
    }
    const text = await boundedText(res.body);
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new UpstreamError(`Okta answered ${res.statusCode} with a body that is not JSON`);
    }
    const link = [res.headers.link ?? ''].flat().join(', ');
    const answer: Answer = { status: res.statusCode, body: obj(parsed), link };
    if (Array.isArray(parsed)) answer.list = parsed;
    return answer;
  }
}

function summary(a: Answer): string {
  const code = str(a.body.errorCode);
  return `${str(a.body.errorSummary) || 'no detail'}${code ? ` (code=${code})` : ''}`;
}

async function boundedText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) {
      body.destroy();
      throw new UpstreamError('Okta answer too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
