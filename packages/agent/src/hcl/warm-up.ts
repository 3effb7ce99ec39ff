import type { AgentConfig } from '../config/config.js';
import { parseHcl } from './parse.js';

/**
 * The HCL parser (wasm) blocks the process for up to a second when first loaded. A server
 * with ACLs pays that before it starts, rather than inside its first ACL policy write, where
 * a stalled leader would look dead to its followers. The process entry points call this;
 * in-memory tests that write no policy skip it.
 */
export async function warmUpHcl(config: AgentConfig): Promise<void> {
  if (config.acl.enabled && config.server.enabled) await parseHcl('warm-up.hcl', '').catch(() => {});
}
