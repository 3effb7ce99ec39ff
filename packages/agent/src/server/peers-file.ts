import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Gossip addresses of the other live servers, kept in `<data_dir>/serf/peers.json` so a
 * restarted server rejoins its pool without `-join` (Serf keeps a similar snapshot).
 */
export class PeersFile {
  readonly #path: string;
  #pending: string[] | undefined;
  #writing: Promise<void> | undefined;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'serf', 'peers.json');
  }

  async load(): Promise<string[]> {
    try {
      const v = JSON.parse(await readFile(this.#path, 'utf8'));
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Saves `peers`; writes are serialised and only the latest list is written. */
  save(peers: string[]): Promise<void> {
    this.#pending = [...peers].sort();
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = undefined;
    });
    return this.#writing;
  }

  async #drain(): Promise<void> {
    await mkdir(join(this.#path, '..'), { recursive: true });
    while (this.#pending) {
      const peers = this.#pending;
      this.#pending = undefined;
      // Write then rename, so a crash mid-write never leaves a torn file.
      await writeFile(`${this.#path}.tmp`, JSON.stringify(peers));
      await rename(`${this.#path}.tmp`, this.#path);
    }
  }
}
