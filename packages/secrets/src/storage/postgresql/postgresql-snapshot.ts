import type pg from 'pg';
import type { StorageEntry, StorageSnapshot } from '../storage.js';
import type { PostgresNames } from './postgresql-schema.js';

/** Rows fetched from the snapshot's cursor at a time. */
const FETCH_ROWS = 500;

/**
 * A REPEATABLE READ transaction on a connection of its own sees the store as of its first query
 * however long it is read; a cursor over it hands out the entries in key order, a page at a time.
 */
export async function openPostgresSnapshot(client: pg.PoolClient, names: PostgresNames): Promise<StorageSnapshot> {
  let isClosed = false;
  const close = async () => {
    if (isClosed) return;
    isClosed = true;
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  };
  let count: number;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM ${names.kv}`);
    count = Number(rows[0]?.count ?? 0);
    await client.query(
      `DECLARE snapshot NO SCROLL CURSOR FOR
         SELECT substr(path, 2) || key AS key, value FROM ${names.kv} ORDER BY substr(path, 2) || key COLLATE "C"`,
    );
  } catch (err) {
    await close();
    throw err;
  }
  return {
    count,
    async *entries(): AsyncGenerator<StorageEntry> {
      try {
        for (;;) {
          const { rows } = await client.query<{ key: string; value: Buffer }>(`FETCH ${FETCH_ROWS} FROM snapshot`);
          for (const row of rows) yield { key: row.key, value: new Uint8Array(row.value) };
          if (rows.length < FETCH_ROWS) return;
        }
      } finally {
        await close();
      }
    },
    close,
  };
}
