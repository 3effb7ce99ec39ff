import { hostname } from 'node:os';
import type { Clock } from '@ward/base';
import type { HaNode } from '@ward/secrets-client';
import { rfc3339Nano } from '../../logical/time.js';
import type { HaOptions } from './ha-campaign.js';

/** What a server says about itself when it echoes to the active server (and what the active says of itself). */
export interface HaNodeInfo {
  hostname: string;
  apiAddr: string;
  clusterAddr: string;
  version: string;
}

/** One node of `sys/ha-status`: the wire type of `@ward/secrets-client`. */
export type HaNodeReport = HaNode;

/** A standby that has not echoed for this long has left the cluster (killed, sealed, cut off). */
export const FORGET_AFTER_MS = 30_000;

/**
 * The standbys the active server has heard from: each unsealed standby echoes over the cluster
 * channel every few seconds. Kept in memory only: a new active server learns them from their next echo.
 */
export class HaNodeTable {
  readonly #nodes = new Map<string, { info: HaNodeInfo; lastEchoMs: number }>();

  /** A standby echoed; it is known by its cluster address (its API address when it has none). */
  record(info: HaNodeInfo, nowMs: number): void {
    this.#nodes.set(info.clusterAddr || info.apiAddr, { info, lastEchoMs: nowMs });
  }

  /** The active server first, then every standby heard from lately. */
  report(self: HaNodeInfo, nowMs: number): HaNodeReport[] {
    const nodes = [nodeReport(self, null)];
    for (const [key, node] of this.#nodes) {
      if (nowMs - node.lastEchoMs > FORGET_AFTER_MS) this.#nodes.delete(key);
      else if (key !== (self.clusterAddr || self.apiAddr)) nodes.push(nodeReport(node.info, node.lastEchoMs));
    }
    return nodes;
  }

  /** Another server is active now: what this one heard is no longer its to report. */
  clear(): void {
    this.#nodes.clear();
  }
}

function nodeReport(info: HaNodeInfo, lastEchoMs: number | null): HaNodeReport {
  return {
    hostname: info.hostname,
    api_address: info.apiAddr,
    cluster_address: info.clusterAddr,
    active_node: lastEchoMs === null,
    last_echo: lastEchoMs === null ? null : rfc3339Nano(lastEchoMs),
    version: info.version,
    upgrade_version: info.version,
    redundancy_zone: '',
  };
}

/** `sys/ha-status`: this server (the active one, when asked through the API) and the standbys that echoed to it. */
export function haNodeReport(
  nodes: HaNodeTable,
  deps: { ha?: HaOptions; version: string; clock: Clock },
): HaNodeReport[] {
  const addresses = deps.ha?.advertise() ?? { apiAddr: '', clusterAddr: '' };
  return nodes.report({ ...addresses, hostname: hostname(), version: deps.version }, deps.clock.now());
}
