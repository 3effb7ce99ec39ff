import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { ChangeFeed, StorageChange } from '../change-feed.js';
import type { PostgresStorage } from './postgresql.js';
import { quoteIdentifier } from './postgresql-schema.js';

/** How long to wait before connecting again after the listening connection broke. */
const RECONNECT_MS = 500;

interface Notice {
  revision: number;
  /** `null` when the change named too many keys for a notification (or replaced everything). */
  keys: string[] | null;
}

/**
 * The change feed of a `PostgresStorage` with HA on: LISTEN on the table's channel, to which every
 * write NOTIFYs its revision and keys in its own transaction. PostgreSQL delivers notifications in
 * commit order and writers raise the revision under one row lock, so revisions arrive in order,
 * each one once. A gap (a notification too large to carry its keys, a broken connection) is filled
 * from the change log; when the log no longer goes back far enough, the feed reports `isEverything`.
 */
export class PostgresChangeFeed implements ChangeFeed {
  readonly #storage: PostgresStorage;
  #handler: ((change: StorageChange) => Promise<void>) | undefined;
  #client: pg.Client | undefined;
  #delivered = 0;
  #queue: Promise<void> = Promise.resolve();
  #isStopped = true;

  constructor(storage: PostgresStorage) {
    this.#storage = storage;
  }

  async start(handler: (change: StorageChange) => Promise<void>): Promise<number> {
    this.#handler = handler;
    this.#isStopped = false;
    await this.#storage.opened();
    await this.#listen();
    this.#delivered = await this.#currentRevision();
    return this.#delivered;
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
    await this.#queue;
  }

  writtenRevision(): number {
    return this.#storage.writtenRevision;
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#storage.config.connectionUrl });
    client.on('error', () => {});
    client.on('end', () => void this.#reconnect(client));
    client.on('notification', (message) => {
      const notice = parseNotice(message.payload);
      if (notice) this.#enqueue(() => this.#onNotice(notice));
    });
    await client.connect();
    this.#client = client;
    await client.query(`LISTEN ${quoteIdentifier(this.#storage.names.channel)}`);
    if (this.#isStopped) await client.end().catch(() => {});
  }

  async #currentRevision(): Promise<number> {
    const { rows } = await this.#storage.pool.query<{ revision: string }>(
      `SELECT revision FROM ${this.#storage.names.revision} WHERE id = 1`,
    );
    return Number(rows[0]?.revision ?? 0);
  }

  async #onNotice(notice: Notice): Promise<void> {
    if (notice.revision <= this.#delivered) return;
    if (notice.revision === this.#delivered + 1 && notice.keys !== null) {
      return this.#deliver({ revision: notice.revision, keys: notice.keys, isEverything: false });
    }
    await this.#catchUp(notice.revision);
  }

  /** Delivers every change after the last one delivered, up to `revision`, from the change log. */
  async #catchUp(revision: number): Promise<void> {
    if (revision <= this.#delivered) return;
    const { rows } = await this.#storage.pool.query<{ revision: string; keys: string[]; everything: boolean }>(
      `SELECT revision, keys, everything FROM ${this.#storage.names.changes}
       WHERE revision > $1 AND revision <= $2 ORDER BY revision`,
      [this.#delivered, revision],
    );
    if (Number(rows[0]?.revision) !== this.#delivered + 1) {
      return this.#deliver({ revision, keys: [], isEverything: true });
    }
    for (const row of rows) {
      await this.#deliver({
        revision: Number(row.revision),
        keys: row.everything ? [] : row.keys,
        isEverything: row.everything,
      });
    }
  }

  async #deliver(change: StorageChange): Promise<void> {
    this.#delivered = change.revision;
    if (this.#isStopped || !this.#handler) return;
    await this.#handler(change).catch(() => {});
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(() => (this.#isStopped ? undefined : task())).catch(() => {});
  }

  /** After the listening connection broke: listen again, then catch up on what was missed meanwhile. */
  async #reconnect(broken: pg.Client): Promise<void> {
    if (this.#client !== broken || this.#isStopped) return;
    this.#client = undefined;
    while (!this.#isStopped) {
      try {
        await this.#listen();
        const revision = await this.#currentRevision();
        this.#enqueue(() => this.#catchUp(revision));
        return;
      } catch {
        await sleep(RECONNECT_MS);
      }
    }
  }
}

function parseNotice(payload: string | undefined): Notice | undefined {
  try {
    const parsed = JSON.parse(payload ?? '') as { revision?: unknown; keys?: unknown };
    const revision = Number(parsed.revision);
    if (!Number.isSafeInteger(revision)) return undefined;
    const keys = Array.isArray(parsed.keys) && parsed.keys.every((k) => typeof k === 'string') ? parsed.keys : null;
    return { revision, keys };
  } catch {
    return undefined;
  }
}
