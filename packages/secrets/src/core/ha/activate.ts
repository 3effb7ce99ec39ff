import type { Storage } from '../../logical/storage.js';
import { ensureClusterTls } from './cluster-tls.js';
import type { HaOptions } from './ha-campaign.js';
import type { HaNodeTable } from './ha-nodes.js';

/**
 * The HA part of becoming active, once everything behind the barrier is loaded: the cluster's TLS
 * material exists (the first active server makes it) and the cluster listener serves with it before
 * the first forwarded request can arrive; standbys heard by an earlier term are forgotten.
 */
export async function activateHa(
  ha: HaOptions,
  deps: { barrier: Storage; nodes: HaNodeTable; nowMs: number },
): Promise<void> {
  const tls = await ensureClusterTls(deps.barrier, deps.nowMs);
  deps.nodes.clear();
  await ha.onActive?.(tls);
}
