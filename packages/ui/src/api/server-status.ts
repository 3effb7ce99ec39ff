import type { Api } from './api.js';

/** What the header and the lifecycle screens show: `sys/seal-status` and `sys/leader`, both unauthenticated. */
export interface ServerStatus {
  initialized: boolean;
  sealed: boolean;
  /** Unseal: shares needed, shares in all, shares given so far. */
  threshold: number;
  shares: number;
  progress: number;
  sealType: string;
  version: string;
  clusterName: string;
  /** `active`, `standby`, `performance standby`, or `none` when HA is off. */
  haRole: 'active' | 'standby' | 'performance standby' | 'none';
}

interface SealStatusBody {
  initialized: boolean;
  sealed: boolean;
  t: number;
  n: number;
  progress: number;
  type: string;
  version: string;
  cluster_name?: string;
}

interface LeaderBody {
  ha_enabled: boolean;
  is_self: boolean;
  performance_standby?: boolean;
}

/** Reads the server's state; what it reads goes to the subscribers (the app polls it, and after each lifecycle step). */
export class StatusWatcher {
  #status: ServerStatus | undefined;
  #error: Error | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly api: Api) {}

  get status(): ServerStatus | undefined {
    return this.#status;
  }

  get error(): Error | undefined {
    return this.#error;
  }

  async refresh(): Promise<void> {
    try {
      const seal = (await this.api.request('GET', 'sys/seal-status', { token: null })) as unknown as SealStatusBody;
      const leader = seal.sealed
        ? undefined
        : ((await this.api.request('GET', 'sys/leader', { token: null }).catch(() => undefined)) as unknown as
            | LeaderBody
            | undefined);
      this.#status = {
        initialized: seal.initialized,
        sealed: seal.sealed,
        threshold: seal.t,
        shares: seal.n,
        progress: seal.progress,
        sealType: seal.type,
        version: seal.version,
        clusterName: seal.cluster_name ?? '',
        haRole: haRoleOf(leader),
      };
      this.#error = undefined;
    } catch (err) {
      this.#error = err as Error;
    }
    for (const l of this.#listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

function haRoleOf(leader: LeaderBody | undefined): ServerStatus['haRole'] {
  if (!leader?.ha_enabled) return 'none';
  if (leader.is_self) return 'active';
  return leader.performance_standby ? 'performance standby' : 'standby';
}
