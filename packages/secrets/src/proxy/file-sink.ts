import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileSinkConfig } from './config.js';

/** Where auto-auth puts each new token. */
export interface TokenSink {
  readonly path: string;
  /** Replaces the sink's content with `token`; a reader sees the old token or the new one, never a mix. */
  write(token: string): Promise<void>;
}

/**
 * A file sink: the token goes to a temporary file beside the target, created with the configured
 * mode (so it is never readable more widely, not even for an instant), flushed, then renamed over
 * the target. Rename is atomic within a directory, so a reader never sees a half-written token.
 */
export function createFileSink(config: FileSinkConfig): TokenSink {
  return {
    path: config.path,
    async write(token) {
      const temp = join(dirname(config.path), `.${basename(config.path)}.${randomBytes(6).toString('hex')}.tmp`);
      const file = await open(temp, 'wx', config.mode === 0 ? 0o666 : config.mode);
      try {
        // The umask may have removed bits the configuration asked for.
        if (config.mode !== 0) await file.chmod(config.mode);
        await file.writeFile(token);
        await file.sync();
      } catch (err) {
        await file.close();
        await rm(temp, { force: true });
        throw err;
      }
      await file.close();
      try {
        await rename(temp, config.path);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
  };
}
