import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; fails after `tries` attempts 50 ms apart. */
export async function until(what: string, check: () => Promise<boolean> | boolean, tries = 400): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`gave up waiting until ${what}`);
}

/**
 * `bin/ward server` on a SQLite file in a directory of its own, for crash tests: started, killed
 * (the test holds the file's write lock, then SIGKILLs it) and started again over the same file.
 */
export class CrashableWard {
  ward: WardProcess | undefined;

  private constructor(
    readonly dir: string,
    readonly config: string,
    /** The SQLite file: the test opens it to hold the write lock or to look at the entries. */
    readonly dbPath: string,
  ) {}

  static async create(prefix: string): Promise<CrashableWard> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    const config = join(dir, 'ward.hcl');
    const dbPath = join(dir, 'data', 'ward.db');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${dbPath}"\n}\n\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    return new CrashableWard(dir, config, dbPath);
  }

  /** Starts the server; its URL. */
  async start(): Promise<string> {
    this.ward = startWard(['server', `-config=${this.config}`]);
    const [, url] = await this.ward.waitFor(/listening: url=(http:\/\/\S+)/);
    return url as string;
  }

  /** Initialises (one share) and unseals the server at `url`. */
  async initialize(url: string): Promise<{ key: string; token: string }> {
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    const [key] = init.body.keys as string[];
    await request(url, 'PUT', 'sys/unseal', { body: { key } });
    return { key: key as string, token: init.body.root_token as string };
  }

  /** SIGKILLs the server; resolves with how it ended. */
  async kill(): Promise<number | string | undefined> {
    this.ward?.child.kill('SIGKILL');
    return this.ward?.exited;
  }

  async dispose(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}
