import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A test harness (exported as `@ward/base/testing`, never imported by production code): the
// throwaway PostgreSQL clusters the platform store, the secrets server's storage and its database
// engine are tested on.
// It drives the server with PostgreSQL's own programs, so `base` needs no database client.

const run = promisify(execFile);

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

export interface PostgresServerOptions {
  /** The superuser `initdb` creates (default `ward`). */
  superuser?: string;
  /**
   * Its password: connections over TCP must then log in with one (`scram-sha-256`), as a
   * database engine's users really do; without it every connection is trusted.
   */
  password?: string;
  /** `max_connections` (PostgreSQL's default, 100, when not given). */
  maxConnections?: number;
}

/**
 * A throwaway PostgreSQL: `initdb` in a temporary directory, listening on 127.0.0.1 on a free
 * port (and a socket in that directory only), trusting local connections (and TCP ones unless
 * given a `password`). `stop` kills it and removes the directory.
 */
export class PostgresServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly bin: string,
    private readonly superuser: string,
    private readonly password: string | undefined,
  ) {}

  static async start(options: PostgresServerOptions = {}): Promise<PostgresServer> {
    const bin = binDir();
    const superuser = options.superuser ?? 'ward';
    const dir = mkdtempSync(join(tmpdir(), 'ward-pg-'));
    const data = join(dir, 'data');
    const auth = ['--auth=trust'];
    const pwfile = join(dir, 'pw');
    if (options.password !== undefined) {
      writeFileSync(pwfile, options.password);
      auth.splice(0, 1, '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=trust');
    }
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      chownSync(dir, uid, 0);
      if (options.password !== undefined) chownSync(pwfile, uid, 0);
      chmodSync(dir, 0o700);
    }
    execFileSync(
      ...asClusterUser(join(bin, 'initdb'), ['-D', data, '-U', superuser, ...auth, '-E', 'UTF8', '--no-sync']),
      {
        stdio: 'ignore',
      },
    );
    const port = await freePort();
    const settings = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
    if (options.maxConnections !== undefined) settings.push('-c', `max_connections=${options.maxConnections}`);
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
    const server = new PostgresServer(port, dir, child, bin, superuser, options.password);
    await server.#waitUntilReady();
    return server;
  }

  /** The URL of the server's maintenance database (as the superuser), from which new databases are made. */
  get adminUrl(): string {
    return this.#url('postgres');
  }

  /** The URL of a fresh, empty database on this server. */
  createDatabase(): Promise<string> {
    return createDatabase(this.adminUrl, this.bin);
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
    const login =
      this.password === undefined ? this.superuser : `${this.superuser}:${encodeURIComponent(this.password)}`;
    return `postgres://${login}@127.0.0.1:${this.port}/${database}`;
  }

  async #waitUntilReady(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`postgres exited with ${this.child.exitCode}`);
      try {
        await run(join(this.bin, 'pg_isready'), ['-q', '-d', this.adminUrl]);
        return;
      } catch (err) {
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
export async function createDatabase(adminUrl: string, bin = binDir()): Promise<string> {
  const name = `ward_${process.pid}_${++databases}`;
  await run(join(bin, 'createdb'), ['--maintenance-db', adminUrl, name]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
