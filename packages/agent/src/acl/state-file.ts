import { join } from 'node:path';
import { readDurableJson, writeDurable } from '../persist/durable-file.js';
import type { AclPersistence, AclSnapshot } from './store.js';

/**
 * ACL state in `<dataDir>/acl/state.json` (mode 0600: it holds token secrets), replaced
 * atomically and fsynced on every change, so a restarted server keeps its policies,
 * tokens and bootstrap state.
 */
export function aclStateFile(dataDir: string): AclPersistence {
  const path = join(dataDir, 'acl', 'state.json');
  return {
    load: () => readDurableJson(path) as AclSnapshot | undefined,
    save: (s) => writeDurable(path, JSON.stringify(s)),
  };
}
