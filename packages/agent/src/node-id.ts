import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Random, randomUuid } from '@ward/base';

/**
 * This agent's node ID: kept in `<data_dir>/node-id` so a restarted agent keeps its
 * identity (the `id` tag, `node_id` forwarding); fresh each start without a data dir.
 */
export async function loadNodeId(dataDir: string, random: Random): Promise<string> {
  if (!dataDir) return randomUuid(random);
  const path = join(dataDir, 'node-id');
  try {
    const id = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch {
    // First start: no file yet.
  }
  const id = randomUuid(random);
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, `${id}\n`, { mode: 0o600 });
  return id;
}
