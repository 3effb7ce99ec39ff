import type { Cancel, Clock } from '@ward/base';
import { type Client, ResultCodeError } from 'ldapts';
import type { LdapConfig } from './config-store.js';
import { connectBound } from './directory.js';
import { type Directory, directoryOps } from './directory-ops.js';

export interface PoolLimits {
  /** Idle bound connections kept; one released beyond this is closed. */
  maxIdle: number;
  /** Operations after which a connection is closed rather than reused (spreads load after a failover). */
  maxOperations: number;
  /** An idle connection is closed after this long unused (before a directory or firewall drops it). */
  idleTimeoutMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { maxIdle: 16, maxOperations: 1000, idleTimeoutMs: 60_000 };

interface Pooled {
  client: Client;
  /** The pool generation it was bound in: a config change or rotate-root starts a new one. */
  generation: number;
  operations: number;
  /** Set by a failed operation: closed at release instead of reused. */
  isSuspect: boolean;
  cancelIdleTimer?: Cancel;
}

/** The config fields a bound connection depends on: when any changes, pooled connections are dropped. */
const CONNECTION_FIELDS = [
  'url',
  'binddn',
  'bindpass',
  'upndomain',
  'starttls',
  'insecure_tls',
  'certificate',
  'client_tls_cert',
  'client_tls_key',
  'tls_min_version',
  'tls_max_version',
  'connection_timeout',
  'request_timeout',
] as const;

type ConnectionSettings = Array<LdapConfig[(typeof CONNECTION_FIELDS)[number]]>;

/** Compared field by field on every request: cheaper than building a key. */
function isSameConnection(a: ConnectionSettings, config: LdapConfig): boolean {
  return CONNECTION_FIELDS.every((field, i) => {
    const value = config[field];
    if (!Array.isArray(value)) return value === a[i];
    const known = a[i] as string[];
    return value.length === known.length && value.every((url, j) => url === known[j]);
  });
}

/**
 * The bound directory connections of one mount. A request borrows one for its operations
 * (exclusively) and gives it back; connecting and binding once per connection instead of
 * once per request is most of the cost of an LDAP request. Connections bound with settings
 * that have changed since (config write, rotate-root, or a write seen from another node) are
 * never reused. An operation that finds its reused connection dead runs once more on a
 * fresh one; a connection that saw any failure is closed rather than reused.
 */
export class ConnectionPool {
  #idle: Pooled[] = [];
  #generation = 0;
  #settings: ConnectionSettings = [];
  #isClosed = false;

  constructor(
    private readonly clock: Clock,
    private readonly limits: PoolLimits = DEFAULT_POOL_LIMITS,
  ) {}

  /**
   * Runs `work` with a directory session bound as the config's `binddn`. `reload` reads the
   * config again (a rotate-root under way may have changed the bind password).
   */
  async use<T>(
    config: LdapConfig,
    reload: () => Promise<LdapConfig | undefined>,
    work: (directory: Directory) => Promise<T>,
  ): Promise<T> {
    this.#follow(config);
    const generation = this.#generation;
    const open = async (): Promise<Pooled> => ({
      client: await connectBound(config, this.clock.now(), reload),
      generation,
      operations: 0,
      isSuspect: false,
    });
    const idle = this.#takeIdle();
    let current = idle ?? (await open());
    let isReused = idle !== undefined;
    const run = async <R>(operation: (client: Client) => Promise<R>): Promise<R> => {
      for (;;) {
        // A connection the directory closed (a restart, an idle cut) is replaced before use:
        // ldapts would reconnect it unbound, and the operation would fail as anonymous.
        if (!current.client.isBound) {
          this.#discard(current);
          current = await open();
          isReused = false;
        }
        current.operations++;
        try {
          return await operation(current.client);
        } catch (err) {
          current.isSuspect = true;
          if (!isReused || !isConnectionLost(err)) throw err;
          // A reused connection turned out dead: once more on a fresh one. (An add the
          // directory applied just before the connection dropped then fails as existing.)
          this.#discard(current);
          current = await open();
          isReused = false;
        }
      }
    };
    try {
      return await work(directoryOps(run, config));
    } finally {
      this.#release(current);
    }
  }

  /** Closes every idle connection; those in use are closed when given back. */
  drop(): void {
    this.#generation++;
    for (const pooled of this.#idle.splice(0)) this.#discard(pooled);
  }

  /** On unmount and seal: nothing is pooled any more. */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.drop();
  }

  /** Starts a new generation when the connection settings differ from those of the pooled connections. */
  #follow(config: LdapConfig): void {
    if (this.#settings.length > 0 && isSameConnection(this.#settings, config)) return;
    this.#settings = CONNECTION_FIELDS.map((field) => config[field]);
    this.drop();
  }

  #takeIdle(): Pooled | undefined {
    // Most recently used first: the others age out under light load.
    for (let pooled = this.#idle.pop(); pooled; pooled = this.#idle.pop()) {
      pooled.cancelIdleTimer?.();
      if (pooled.client.isBound) return pooled;
      this.#discard(pooled);
    }
    return undefined;
  }

  #release(pooled: Pooled): void {
    const isReusable =
      !this.#isClosed &&
      !pooled.isSuspect &&
      pooled.generation === this.#generation &&
      pooled.operations < this.limits.maxOperations &&
      pooled.client.isBound &&
      this.#idle.length < this.limits.maxIdle;
    if (!isReusable) {
      this.#discard(pooled);
      return;
    }
    pooled.cancelIdleTimer = this.clock.setTimeout(() => {
      const at = this.#idle.indexOf(pooled);
      if (at >= 0) this.#discard(this.#idle.splice(at, 1)[0] as Pooled);
    }, this.limits.idleTimeoutMs);
    this.#idle.push(pooled);
  }

  #discard(pooled: Pooled): void {
    pooled.cancelIdleTimer?.();
    // The unbind is sent at once; its socket closes in the background, as nothing more is asked of it.
    void pooled.client.unbind().catch(() => {});
  }
}

/**
 * Whether an operation failed because its connection is gone (closed or reset before the
 * answer), so the request may be sent again elsewhere. A directory's answer is not, nor is
 * a timeout: the directory may still be working on it.
 */
function isConnectionLost(err: unknown): boolean {
  if (err instanceof ResultCodeError || !(err instanceof Error)) return false;
  return !/timed out|timeout/i.test(err.message);
}
