import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { configs, type DatabaseConfig } from './config-store.js';
import { withCredentials } from './connection-url.js';
import { type DatabasePlugin, requirePlugin } from './plugins.js';
import type { SessionDeps, SqlSession } from './sql-session.js';

/** An open pool and what it was opened for. */
interface Open {
  config: DatabaseConfig;
  plugin: DatabasePlugin;
  session: SqlSession;
}

/**
 * The mount's connection pools, one per config name, opened on first use. A config change,
 * `reset`, `reload`, a seal or an unmount closes a pool; the next use opens one anew.
 */
export class Connections {
  readonly #open = new Map<string, Promise<Open>>();

  constructor(private readonly deps: SessionDeps) {}

  /** The pool of config `name` (which must be `config`, as just read). */
  async get(storage: Storage, name: string, config: DatabaseConfig): Promise<Open> {
    let open = this.#open.get(name);
    if (!open) {
      open = this.#connect(storage, name, config);
      this.#open.set(name, open);
      open.catch(() => this.#open.delete(name));
    }
    return open;
  }

  /** Closes the pool of `name` (running calls finish first). */
  async close(name: string): Promise<void> {
    const open = this.#open.get(name);
    this.#open.delete(name);
    await open?.then((o) => o.session.close()).catch(() => {});
  }

  /** Closes every pool; with `plugin`, only pools of that plugin. Resolves with the names closed. */
  async closeAll(plugin?: string): Promise<string[]> {
    const names: string[] = [];
    for (const [name, open] of [...this.#open]) {
      const o = await open.catch(() => undefined);
      if (plugin !== undefined && o?.plugin.name !== plugin) continue;
      names.push(name);
      await this.close(name);
    }
    return names;
  }

  /**
   * Opens a pool with the config's password, or with the password a `rotate-root` was setting
   * when the first is refused (a crash between its change and its save); that one is then saved.
   */
  async #connect(storage: Storage, name: string, config: DatabaseConfig): Promise<Open> {
    if (config.self_managed)
      throw new InvalidRequestError(
        `connection "${name}" is self-managed: it has no root user (only its static roles' users rotate their own passwords)`,
      );
    const plugin = requirePlugin(config.plugin_name);
    const first = openSession(plugin, config, config.password, this.deps);
    try {
      await first.ping();
      return { config, plugin, session: first };
    } catch (err) {
      await first.close().catch(() => {});
      if (!config.pending_password)
        throw new UpstreamError(`error connecting to "${name}": ${(err as Error).message}`, { cause: err });
      const second = openSession(plugin, config, config.pending_password, this.deps);
      await second.ping().catch(async (again: Error) => {
        await second.close().catch(() => {});
        throw new UpstreamError(`error connecting to "${name}": ${again.message}`, { cause: again });
      });
      const saved = { ...config, password: config.pending_password, pending_password: '' };
      await configs.put(storage, name, saved);
      return { config: saved, plugin, session: second };
    }
  }
}

/** A pool for `config` as user `config.username` with `password` (nothing connects until it is used). */
export function openSession(
  plugin: DatabasePlugin,
  config: DatabaseConfig,
  password: string,
  deps: SessionDeps,
): SqlSession {
  const target = withCredentials(plugin.parseUrl(config.connection_url), config.username, password);
  const maxOpen = config.max_open_connections;
  return plugin.open(
    target,
    {
      maxOpen,
      maxIdle: config.max_idle_connections === 0 ? maxOpen : Math.min(config.max_idle_connections, maxOpen),
      maxLifetimeSeconds: config.max_connection_lifetime,
    },
    deps,
  );
}
