import { UpstreamError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { configs } from './config-store.js';
import type { DatabaseDeps } from './deps.js';
import { renderStatements } from './statements.js';

/**
 * Drops a dynamic user: its revocation statements in one transaction, or the plugin's default
 * revocation. A user that no longer exists counts as dropped, so a retried revocation (or
 * the sweep of a write-ahead record and then the lease) completes.
 */
export async function dropUser(
  d: DatabaseDeps,
  storage: Storage,
  o: { db_name: string; username: string; revocation_statements: readonly string[] },
): Promise<void> {
  const config = await configs.get(storage, o.db_name);
  if (!config) throw new UpstreamError(`failed to find entry for connection with name: "${o.db_name}"`);
  const { session } = await d.connections.get(storage, o.db_name, config);
  try {
    if (o.revocation_statements.length === 0) return await session.dropUser(o.username);
    const values = new Map([
      ['name', o.username],
      ['username', o.username],
    ]);
    await session.transaction(renderStatements(o.revocation_statements, values));
  } catch (err) {
    // Asked only when the revocation failed (one round trip less per revocation): a user already gone is dropped.
    if (!(await session.userExists(o.username).catch(() => true))) return;
    throw new UpstreamError(`failed to revoke user "${o.username}": ${(err as Error).message}`, { cause: err });
  }
}
