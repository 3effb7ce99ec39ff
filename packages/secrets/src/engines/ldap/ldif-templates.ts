import {
  type FunctionDeps,
  rfc3339,
  Template,
  TemplateError,
  type TemplateFunction,
  templateFunctions,
  type Value,
} from '../../framework/template/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type LdifEntry, LdifError, parseLdif } from './ldif.js';

/** What an LDIF template of a dynamic role renders with (spec 001, Templates 3). */
export interface LdifData {
  Username: string;
  Password: string;
  RoleName: string;
  DisplayName: string;
  IssueTime: string;
  IssueTimeSeconds: number;
  ExpirationTime: string;
  ExpirationTimeSeconds: number;
}

/** The template data for an account issued at `issuedMs` under a role whose default TTL is `ttlSeconds`. */
export function ldifData(o: {
  username: string;
  password: string;
  roleName: string;
  displayName: string;
  issuedMs: number;
  ttlSeconds: number;
}): LdifData {
  const issueSeconds = Math.floor(o.issuedMs / 1000);
  const expirySeconds = issueSeconds + o.ttlSeconds;
  return {
    Username: o.username,
    Password: o.password,
    RoleName: o.roleName,
    DisplayName: o.displayName,
    IssueTime: rfc3339(new Date(issueSeconds * 1000)),
    IssueTimeSeconds: issueSeconds,
    ExpirationTime: rfc3339(new Date(expirySeconds * 1000)),
    ExpirationTimeSeconds: expirySeconds,
  };
}

const asMap = (data: object) => new Map(Object.entries(data) as Array<[string, Value]>);

/** Parsed templates kept per engine (its clock and randomness) and source text; the oldest go past the cap. */
const MAX_CACHED_TEMPLATES = 256;

class TemplateCache {
  readonly #funcs: ReadonlyMap<string, TemplateFunction>;
  readonly #parsed = new Map<string, Template>();

  constructor(deps: FunctionDeps, isLdif: boolean) {
    this.#funcs = templateFunctions(deps, { isLdif });
  }

  /** The parsed template of `source`; a parse error is not kept (it is thrown again next time). */
  get(source: string): Template {
    let template = this.#parsed.get(source);
    if (!template) {
      template = Template.parse(source, this.#funcs);
      if (this.#parsed.size >= MAX_CACHED_TEMPLATES) this.#parsed.delete(this.#parsed.keys().next().value as string);
      this.#parsed.set(source, template);
    }
    return template;
  }
}

const caches = new WeakMap<FunctionDeps, { ldif: TemplateCache; username: TemplateCache }>();

/** Parsing a role's templates on every request cost more than rendering them: each is parsed once. */
function cacheOf(deps: FunctionDeps) {
  let cache = caches.get(deps);
  if (!cache) {
    cache = { ldif: new TemplateCache(deps, true), username: new TemplateCache(deps, false) };
    caches.set(deps, cache);
  }
  return cache;
}

/** Renders an LDIF template and parses the result; `TemplateError`/`LdifError` say which step failed. */
export function renderLdif(source: string, data: LdifData, deps: FunctionDeps): LdifEntry[] {
  return parseLdif(cacheOf(deps).ldif.get(source).render(asMap(data)));
}

/** The rendered bytes of an LDIF template, once they are known to parse (to be parsed again later). */
export function renderLdifChecked(source: string, data: LdifData, deps: FunctionDeps): Buffer {
  const bytes = cacheOf(deps).ldif.get(source).render(asMap(data));
  parseLdif(bytes);
  return bytes;
}

/** Renders the username template (no `utf16le` there). */
export function renderUsername(
  source: string,
  data: { RoleName: string; DisplayName: string },
  deps: FunctionDeps,
): string {
  return cacheOf(deps).username.get(source).render(asMap(data)).toString('utf8');
}

/**
 * Checks a role's LDIF template when it is saved: it must parse, render with sample data,
 * and give valid LDIF with at least one entry (400 naming the field and the error).
 */
export function checkLdifTemplate(field: string, source: string, deps: FunctionDeps, nowMs: number): void {
  const sample = ldifData({
    username: 'testuser',
    password: 'testpass',
    roleName: 'testrolename',
    displayName: 'testdisplayname',
    issuedMs: nowMs,
    ttlSeconds: 86_400,
  });
  let entries: LdifEntry[];
  try {
    entries = renderLdif(source, sample, deps);
  } catch (err) {
    if (err instanceof TemplateError)
      throw new InvalidRequestError(`invalid ${field}: invalid template: ${err.message}`);
    if (err instanceof LdifError) throw new InvalidRequestError(`invalid ${field}: LDIF is invalid: ${err.message}`);
    throw err;
  }
  if (entries.length === 0) throw new InvalidRequestError(`invalid ${field}: must specify at least one LDIF entry`);
}
