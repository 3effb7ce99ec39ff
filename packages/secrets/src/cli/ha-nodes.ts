import type { Client } from '@ward/secrets-client';

/** One server of `sys/ha-status`, by the established field names. */
export interface HaNode {
  hostname: string;
  api_address: string;
  cluster_address: string;
  active_node: boolean;
  version?: string;
  last_echo?: string | null;
}

/** The HA cluster's servers; `raw` is the whole answer, for `-format=json`. */
export async function haNodes(client: Client): Promise<{ nodes: HaNode[]; raw: unknown }> {
  const secret = await client.read('sys/ha-status');
  const nodes = ((secret?.data as { nodes?: HaNode[] } | undefined)?.nodes ?? []).slice();
  return { nodes, raw: secret };
}
