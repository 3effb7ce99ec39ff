import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import type { SnapshotTarget, StoredSnapshot } from './snapshot-target.js';

/** Suffix of a file being written: never listed, so a crash mid-write is not taken for a snapshot. */
const PARTIAL = '.partial';

/** `storage_type "local"`: files in a directory of this server (created, mode 0700, when missing). */
export function createLocalTarget(directory: string): SnapshotTarget {
  const dir = resolve(directory);
  return {
    async put(name, body) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = resolve(dir, name);
      const partial = `${path}${PARTIAL}`;
      try {
        await pipeline(Readable.from(body), createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, path);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
      return { url: pathToFileURL(path).href, size: (await stat(path)).size };
    },
    async list(namePrefix) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const found: StoredSnapshot[] = [];
      for (const name of names.filter((n) => n.startsWith(namePrefix) && !n.endsWith(PARTIAL)).sort()) {
        const info = await stat(resolve(dir, name)).catch(() => undefined);
        if (info?.isFile()) found.push({ name, size: info.size });
      }
      return found;
    },
    async delete(name) {
      await rm(resolve(dir, name), { force: true });
    },
  };
}
