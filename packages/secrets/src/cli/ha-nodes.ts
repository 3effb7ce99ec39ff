import type { Client, HaNode } from '@ward/secrets-client';

/** The HA cluster's servers; `raw` is the whole answer, for `-format=json`. */
export async function haNodes(client: Client): Promise<{ nodes: HaNode[]; raw: unknown }> {
  const secret = await client.read('sys/ha-status');
  const nodes = ((secret?.data as { nodes?: HaNode[] } | undefined)?.nodes ?? []).slice();
  return { nodes, raw: secret };
}
