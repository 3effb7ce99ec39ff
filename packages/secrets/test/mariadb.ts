import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { freePort } from '../src/server/testing.js';

const run = promisify(execFile);

/** The administrative user the database engine is configured with (all privileges, from any host). */
export const MARIADB_ROOT = 'ward_root';
export const MARIADB_ROOT_PASSWORD = 'root-secret';

/** Debian's `mariadb-server` installs the server in /usr/sbin. */
const MARIADBD = '/usr/sbin/mariadbd';

/**
 * A throw-away MariaDB: `mariadb-install-db` into a temp dir, `mariadbd` on a free loopback port
 * (and a socket in that dir), no binary log. `MARIADB_ROOT` logs in over TCP with a password;
 * `stop` kills the server and removes the dir.
 */
export class MariaDbServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<MariaDbServer> {
    const dir = await mkdtemp(join(tmpdir(), 'ward-db-mariadb-'));
    const data = join(dir, 'data');
    // As root the server must be told to run as root; otherwise it runs as ourselves.
    const user = process.getuid?.() === 0 ? ['--user=root'] : [];
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...user,
    ]);
    const port = await freePort();
    const socket = join(dir, 'mariadb.sock');
    const child = spawn(
      MARIADBD,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--socket=${socket}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(dir, 'mariadb.pid')}`,
        '--skip-log-bin',
        '--innodb-buffer-pool-size=16M',
        '--max-connections=300',
        ...user,
      ],
      { stdio: 'ignore' },
    );
    const server = new MariaDbServer(port, dir, child);
    await server.#waitUntilReady(socket);
    return server;
  }

  /** A `connection_url` for the engine: the Go driver's DSN with credentials by template. */
  get templatedUrl(): string {
    return `{{username}}:{{password}}@tcp(127.0.0.1:${this.port})/`;
  }

  /** A connection as `user` with `password` over TCP (rejects when the server refuses the login). */
  connect(user: string, password: string, database?: string): Promise<mysql.Connection> {
    return mysql.createConnection({ host: '127.0.0.1', port: this.port, user, password, database });
  }

  async canLogin(user: string, password: string): Promise<boolean> {
    try {
      await (await this.connect(user, password)).end();
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `sql` as `MARIADB_ROOT`; resolves with the rows. */
  async query(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    const conn = await this.connect(MARIADB_ROOT, MARIADB_ROOT_PASSWORD);
    try {
      const [rows] = await conn.query(sql, params);
      return rows as Record<string, unknown>[];
    } finally {
      await conn.end();
    }
  }

  async userExists(name: string): Promise<boolean> {
    return (await this.query('SELECT 1 FROM mysql.user WHERE User = ?', [name])).length > 0;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGKILL');
      });
    }
    await rm(this.dir, { recursive: true, force: true });
  }

  async #waitUntilReady(socket: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`mariadbd exited with ${this.child.exitCode}`);
      try {
        const conn = await mysql.createConnection({ socketPath: socket, user: 'root' });
        await conn.query(`CREATE USER '${MARIADB_ROOT}'@'%' IDENTIFIED BY '${MARIADB_ROOT_PASSWORD}'`);
        await conn.query(`GRANT ALL PRIVILEGES ON *.* TO '${MARIADB_ROOT}'@'%' WITH GRANT OPTION`);
        await conn.end();
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
