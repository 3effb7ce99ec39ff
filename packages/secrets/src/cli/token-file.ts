import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where `login` keeps the token: `$HOME/.ward-token`, readable only by its owner. */
export interface TokenFile {
  readonly path: string;
  /** The stored token, or undefined when there is none. */
  read(): Promise<string | undefined>;
  save(token: string): Promise<void>;
}

export function tokenFileIn(home: string): TokenFile {
  const path = join(home, '.ward-token');
  return {
    path,
    async read() {
      try {
        return (await readFile(path, 'utf8')).trim() || undefined;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async save(token) {
      await writeFile(path, token, { mode: 0o600 });
      // `mode` only applies when the file is created; an older file keeps its bits otherwise.
      await chmod(path, 0o600);
    },
  };
}
