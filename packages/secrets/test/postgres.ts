import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../src/server/testing.js';

/** The superuser the database engine is configured with. */
export const PG_ROOT = 'ward_root';
export const PG_ROOT_PASSWORD = 'root-secret';

/** Debian's `postgresql` package puts its programs here. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(root, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('PostgreSQL is not installed: apt-get install postgresql (see system-packages.txt)');
  return dir;
}

/** PostgreSQL refuses to run as root: as root the cluster runs as Debian's `postgres` user. */
function asClusterUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args]];
}

/**
 * A throwaway PostgreSQL (as packages/platform/test/postgres-server.ts starts one) that checks
 * passwords on TCP (`scram-sha-256`): the engine's users must really log in. Its superuser is
 * `PG_ROOT`; `stop` kills it and removes its directory.
 */
export class PostgresServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<PostgresServer> {
    const bin = binDir();
    const dir = mkdtempSync(join(tmpdir(), 'ward-db-pg-'));
    const data = join(dir, 'data');
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, PG_ROOT_PASSWORD);
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      chownSync(dir, uid, 0);
      chownSync(pwfile, uid, 0);
      chmodSync(dir, 0o700);
    }
    const initdb = ['-D', data, '-U', PG_ROOT, '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=trust'];
    execFileSync(...asClusterUser(join(bin, 'initdb'), [...initdb, '-E', 'UTF8', '--no-sync']), { stdio: 'ignore' });
    const port = await freePort();
    const settings = [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ];
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

  /** A `connection_url` for the engine: credentials by template. */
  get templatedUrl(): string {
    return `postgresql://{{username}}:{{password}}@127.0.0.1:${this.port}/postgres?sslmode=disable`;
  }

  /** The database engine's `config/<name>` for this server as `PG_ROOT` (add `allowed_roles` and the like). */
  get rootConnection(): { plugin_name: string; connection_url: string; username: string; password: string } {
    return {
      plugin_name: 'postgresql-database-plugin',
      connection_url: this.templatedUrl,
      username: PG_ROOT,
      password: PG_ROOT_PASSWORD,
    };
  }

  /** A client logged in as `user` with `password` (rejects when the server refuses the login). */
  async connect(user: string, password: string): Promise<pg.Client> {
    const client = new pg.Client({ host: '127.0.0.1', port: this.port, user, password, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    return client;
  }

  /** Whether `user` can log in with `password` right now. */
  async canLogin(user: string, password: string): Promise<boolean> {
    try {
      await (await this.connect(user, password)).end();
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `sql` as the superuser; resolves with the rows. */
  async query<T extends pg.QueryResultRow = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = await this.connect(PG_ROOT, PG_ROOT_PASSWORD);
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  async roleExists(name: string): Promise<boolean> {
    return (await this.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).length > 0;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGQUIT');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  async #waitUntilReady(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`postgres exited with ${this.child.exitCode}`);
      if (await this.canLogin(PG_ROOT, PG_ROOT_PASSWORD)) return;
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error('postgres did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
