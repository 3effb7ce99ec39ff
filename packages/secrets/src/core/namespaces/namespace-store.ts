/** Namespaces: their store and the services and built-in mounts each one has. @module */
import { type Random, randomBase62 } from '@ward/base';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { setOwn } from '../../logical/own-entries.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A namespace: an isolated tenant with its own mounts, policies and tokens. */
export interface Namespace {
  /** `root`, or 6 random base62 characters. */
  id: string;
  /** `''` for root, else `ns1/` or `ns1/ns2/`. */
  path: string;
  custom_metadata: Record<string, string>;
}

export const ROOT_NAMESPACE: Namespace = Object.freeze({ id: 'root', path: '', custom_metadata: {} });

/** Names that would shadow the paths every namespace has. */
const RESERVED = new Set(['root', 'sys', 'audit', 'auth', 'cubbyhole', 'identity']);

/**
 * The namespaces of a server, kept behind the barrier (`sys/namespaces/<id>`) and in memory,
 * and the resolution of a request's namespace from its header and path.
 */
export class NamespaceStore {
  readonly #byPath = new Map<string, Namespace>([['', ROOT_NAMESPACE]]);
  readonly #byId = new Map<string, Namespace>([['root', ROOT_NAMESPACE]]);

  constructor(private readonly deps: { storage: Storage; random: Random }) {}

  /** Loads every namespace (after unseal). */
  async load(): Promise<void> {
    for (const id of await this.deps.storage.list('')) {
      const ns = await getJson<Namespace>(this.deps.storage, id);
      if (ns) this.#remember(ns);
    }
  }

  byId(id: string | undefined): Namespace | undefined {
    return this.#byId.get(id ?? 'root');
  }

  byPath(path: string): Namespace | undefined {
    return this.#byPath.get(path);
  }

  all(): Namespace[] {
    return [...this.#byPath.values()];
  }

  /** Direct children of `parent`. */
  children(parent: Namespace): Namespace[] {
    return this.all().filter((ns) => ns !== ROOT_NAMESPACE && parentPath(ns.path) === parent.path);
  }

  /**
   * The namespace a request acts in and its path there. The header must name an existing
   * namespace; then the longest existing namespace that prefixes the rest of the path wins,
   * so header `ns1/` + `ns2/secret/x` and `ns1/ns2/secret/x` without a header are the same.
   */
  resolve(header: string, path: string): { namespace: Namespace; path: string } {
    let namespace = this.#byPath.get(header);
    if (!namespace) throw new NotFoundError('namespace not found');
    let rest = path;
    for (;;) {
      const slash = rest.indexOf('/');
      if (slash <= 0) break;
      const child = this.#byPath.get(`${namespace.path}${rest.slice(0, slash + 1)}`);
      if (!child) break;
      namespace = child;
      rest = rest.slice(slash + 1);
    }
    return { namespace, path: rest };
  }

  async create(parent: Namespace, name: string, metadata: Record<string, string>): Promise<Namespace> {
    checkName(name);
    const path = `${parent.path}${name}/`;
    if (this.#byPath.has(path)) throw new InvalidRequestError(`namespace "${path}" already exists`);
    const ns: Namespace = { id: this.#newId(), path, custom_metadata: { ...metadata } };
    await putJson(this.deps.storage, ns.id, ns);
    this.#remember(ns);
    return ns;
  }

  /** Merges `metadata` into the namespace's custom metadata (a `null` value removes a key). */
  async patch(ns: Namespace, metadata: Record<string, string | null>): Promise<Namespace> {
    const merged = { ...ns.custom_metadata };
    for (const [k, v] of Object.entries(metadata)) {
      if (v === null) delete merged[k];
      else setOwn(merged, k, v);
    }
    const updated = { ...ns, custom_metadata: merged };
    await putJson(this.deps.storage, ns.id, updated);
    this.#remember(updated);
    return updated;
  }

  /** Forgets a namespace; the caller has emptied it first. */
  async remove(ns: Namespace): Promise<void> {
    await this.deps.storage.delete(ns.id);
    this.#byPath.delete(ns.path);
    this.#byId.delete(ns.id);
  }

  #remember(ns: Namespace): void {
    this.#byPath.set(ns.path, ns);
    this.#byId.set(ns.id, ns);
  }

  #newId(): string {
    for (;;) {
      const id = randomBase62(this.deps.random, 6);
      if (!this.#byId.has(id)) return id;
    }
  }
}

/** `ns1/ns2/` → `ns1/`; `ns1/` → `''`. */
export function parentPath(path: string): string {
  const trimmed = path.slice(0, -1);
  const slash = trimmed.lastIndexOf('/');
  return slash === -1 ? '' : trimmed.slice(0, slash + 1);
}

function checkName(name: string): void {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(name) || name.endsWith('.')) {
    throw new InvalidRequestError(
      `invalid namespace name "${name}": one path segment of letters, digits, "_", "-" or "."`,
    );
  }
  if (RESERVED.has(name))
    throw new InvalidRequestError(`"${name}" is a reserved path and cannot be used as a namespace`);
}
