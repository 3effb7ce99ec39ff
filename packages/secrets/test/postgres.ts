import { PostgresServer as PostgresCluster } from '@ward/base/testing';
import pg from 'pg';

/** The superuser the database engine is configured with. */
export const PG_ROOT = 'ward_root';
export const PG_ROOT_PASSWORD = 'root-secret';

/**
 * A throwaway PostgreSQL (`@ward/base/testing`'s) that checks passwords on TCP
 * (`scram-sha-256`): the engine's users must really log in. Its superuser is `PG_ROOT`; `stop`
 * kills it and removes its directory.
 */
export class PostgresServer {
  private constructor(private readonly cluster: PostgresCluster) {}

  static async start(): Promise<PostgresServer> {
    const cluster = await PostgresCluster.start({
      superuser: PG_ROOT,
      password: PG_ROOT_PASSWORD,
      maxConnections: 200,
    });
    return new PostgresServer(cluster);
  }

  get port(): number {
    return this.cluster.port;
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

  stop(): Promise<void> {
    return this.cluster.stop();
  }
}
