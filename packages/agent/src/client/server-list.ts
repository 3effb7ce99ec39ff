/** A client agent's servers: the configured ones, kept current by heartbeats, and RPC calls to them with failover. @module */
import type { Cancel, Clock, Logger } from '@ward/base';
import { InternalError, InvalidRequestError, PermissionDeniedError, UpstreamError } from '../errors.js';
import { type CallOptions, type RpcClient, splitHostPort } from '../rpc/rpc-client.js';

export interface ServerListOptions {
  rpc: RpcClient;
  clock: Clock;
  log: Logger;
  /** Servers from config; kept even if unreachable at boot, as the established client does. */
  initial: string[];
  heartbeatIntervalMs: number;
  /** What this client tells servers about itself on each heartbeat. */
  self: { nodeId: string; name: string; rpcAddr: string; datacenter: string };
  /** Presented on heartbeats (ACLs on: needs node:write); undefined when none. */
  token: string | undefined;
}

/** Normalises `host[:port]` to `host:port` with the default RPC port; bare IPv6 gets brackets. */
export function normaliseServer(address: string): string {
  if (!address.startsWith('[') && (address.match(/:/g)?.length ?? 0) > 1) return `[${address}]:4647`;
  const { host, port } = splitHostPort(address, 4647);
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * A client's known servers: the ones it heartbeats over RPC (rotating past a server
 * that fails), and the list `GET/POST /v1/agent/servers` shows and replaces.
 */
export class ServerList {
  #servers: string[];
  #lastHeartbeatMs: number | undefined;
  #cancel: Cancel | undefined;
  #isStopped = false;

  constructor(private readonly o: ServerListOptions) {
    this.#servers = [...new Set(o.initial.map(normaliseServer))];
  }

  /** Sorted `ip:port` strings. */
  list(): string[] {
    return [...this.#servers].sort();
  }

  get lastHeartbeatMs(): number | undefined {
    return this.#lastHeartbeatMs;
  }

  /** Pings every address; replaces the whole list with the ones that answered, or fails with why. */
  async replace(addresses: string[]): Promise<void> {
    const normalised = addresses.map(normaliseServer);
    const results = await Promise.allSettled(
      normalised.map((a) => this.o.rpc.call(a, 'Status.Ping', {}, { timeoutMs: 2000 })),
    );
    const alive = normalised.filter((_, i) => results[i]?.status === 'fulfilled');
    if (alive.length === 0) {
      const errors = results.flatMap((r, i) =>
        r.status === 'rejected' ? [`${normalised[i]}: ${(r.reason as Error).message}`] : [],
      );
      throw new InvalidRequestError(errors.length ? errors.join('; ') : 'no servers');
    }
    this.#servers = [...new Set(alive)];
    this.o.log.info('client: server list replaced', { servers: this.list().join(',') });
  }

  /**
   * Calls `method` on the first known server that answers. A typed error from a server
   * that did answer (403, 404…) is final; an unreachable server is skipped.
   */
  async call<T>(method: string, args: Record<string, unknown>, o: CallOptions = {}): Promise<T> {
    if (this.#servers.length === 0) throw new InternalError('no known servers');
    let last: unknown;
    for (const server of [...this.#servers]) {
      try {
        return await this.o.rpc.call<T>(server, method, args, o);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        last = err;
      }
    }
    throw last;
  }

  start(): void {
    const tick = async () => {
      await this.#heartbeat();
      if (!this.#isStopped) this.#cancel = this.o.clock.setTimeout(() => void tick(), this.o.heartbeatIntervalMs);
    };
    void tick();
  }

  /** Heartbeats the first server that answers, moving failed ones to the back. */
  async #heartbeat(): Promise<void> {
    for (let i = 0; i < this.#servers.length && !this.#isStopped; i++) {
      const server = this.#servers[0] as string;
      try {
        await this.o.rpc.call(server, 'Node.Heartbeat', { ...this.o.self }, { token: this.o.token, timeoutMs: 5000 });
        this.#lastHeartbeatMs = this.o.clock.now();
        return;
      } catch (err) {
        // A server that answered "no" speaks for the cluster: asking the others is pointless.
        if (err instanceof PermissionDeniedError) {
          this.o.log.warn('client: heartbeat refused; set acl.agent_token to a token with node:write', { server });
          return;
        }
        this.o.log.debug('client: heartbeat failed', { server, error: (err as Error).message });
        this.#servers = [...this.#servers.slice(1), server];
      }
    }
  }

  stop(): void {
    this.#isStopped = true;
    this.#cancel?.();
  }
}
