import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Debian's `postgresql` package (packages/platform/system-packages.txt) puts its programs here. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(root, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('PostgreSQL is not installed: apt-get install postgresql (see system-packages.txt)');
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster belongs to (and runs as) the
 * `postgres` user the Debian package creates; otherwise it runs as ourselves. `setpriv` execs
 * the program in its own place, so signals reach postgres itself.
 */
function asClusterUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args]];
}

/**
 * A throwaway PostgreSQL: `initdb` in a temporary directory, listening on 127.0.0.1 on a free
 * port (and a socket in that directory only), trusting local connections. `stop` kills it and
 * removes the directory.
 */
export class PostgresServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<PostgresServer> {
    const bin = binDir();
    const dir = mkdtempSync(join(tmpdir(), 'ward-platform-pg-'));
    const data = join(dir, 'data');
    if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
    execFileSync(
      ...asClusterUser(join(bin, 'initdb'), ['-D', data, '-U', 'ward', '--auth=trust', '-E', 'UTF8', '--no-sync']),
      {
        stdio: 'ignore',
      },
    );
    const port = await freePort();
    const settings = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
    const [command, args] = asClusterUser(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dir,
      ...settings,
    ]);
    const child = spawn(command, args, { stdio: 'ignore' });
    const server = new PostgresServer(port, dir, child);
    await server.#waitUntilReady();
    return server;
  }

  /** The URL of the server's maintenance database, from which new databases are made. */
  get adminUrl(): string {
    return this.#url('postgres');
  }

  /** The URL of a fresh, empty database on this server. */
  createDatabase(): Promise<string> {
    return createDatabase(this.adminUrl);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        // SIGQUIT: immediate shutdown; nothing in a throwaway cluster needs to survive.
        this.child.kill('SIGQUIT');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  #url(database: string): string {
    return `postgres://ward@127.0.0.1:${this.port}/${database}`;
  }

  async #waitUntilReady(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`postgres exited with ${this.child.exitCode}`);
      const client = new pg.Client({ connectionString: this.#url('postgres') });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (err) {
        await client.end().catch(() => {});
        if (Date.now() > deadline) {
          await this.stop();
          throw err;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

let databases = 0;

/** A fresh, empty database on the server whose maintenance database is at `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `ward_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
