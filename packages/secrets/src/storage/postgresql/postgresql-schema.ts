import type pg from 'pg';

/** A name as one quoted identifier (the established backend quotes `table` whole, dots included). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The SQL names one backend uses, derived from `table` and `ha_table`. */
export interface PostgresNames {
  /** `table` and `ha_table` as configured, unquoted. */
  table: string;
  haTable: string;
  kv: string;
  ha: string;
  /** One row: the store's revision, raised by every write while HA is on (it orders the change feed). */
  revision: string;
  /** What each revision changed, kept a while so a feed that missed notifications can catch up. */
  changes: string;
  /** The LISTEN/NOTIFY channel (a plain string: `pg_notify` takes it as text). */
  channel: string;
}

export function postgresNames(table: string, haTable: string): PostgresNames {
  return {
    table,
    haTable,
    kv: quoteIdentifier(table),
    ha: quoteIdentifier(haTable),
    revision: quoteIdentifier(`${table}_revision`),
    changes: quoteIdentifier(`${table}_changes`),
    channel: `${table}_changes`,
  };
}

/**
 * Creates what is missing, in the established layout (so tables an operator made from the
 * established documentation are used as they are). Under an advisory lock, so servers starting
 * together do not race on CREATE.
 */
export async function createSchema(client: pg.PoolClient, names: PostgresNames, isHa: boolean): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [names.kv]);
    const { rows } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [
      names.kv,
    ]);
    if (!rows[0]?.exists) {
      await client.query(`CREATE TABLE ${names.kv} (
        parent_path TEXT COLLATE "C" NOT NULL,
        path        TEXT COLLATE "C",
        key         TEXT COLLATE "C",
        value       BYTEA,
        CONSTRAINT ${quoteIdentifier(`${names.table}_pkey`)} PRIMARY KEY (path, key))`);
      await client.query(`CREATE INDEX ON ${names.kv} (parent_path)`);
    }
    if (isHa) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${names.ha} (
        ha_key      TEXT COLLATE "C" NOT NULL,
        ha_identity TEXT COLLATE "C" NOT NULL,
        ha_value    TEXT COLLATE "C",
        valid_until TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT ${quoteIdentifier(`${names.haTable}_pkey`)} PRIMARY KEY (ha_key))`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${names.revision} (id INT PRIMARY KEY, revision BIGINT NOT NULL)`);
      await client.query(`INSERT INTO ${names.revision} VALUES (1, 0) ON CONFLICT (id) DO NOTHING`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${names.changes} (
        revision   BIGINT PRIMARY KEY,
        keys       TEXT[] NOT NULL,
        everything BOOLEAN NOT NULL)`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * The established row of a key: `a/b/c` is parent `/a/`, path `/a/b/`, key `c`; a top-level key's
 * path is `/` and its parent empty.
 */
export function splitKey(fullKey: string): { parentPath: string; path: string; key: string } {
  const parts = fullKey.split('/');
  const key = parts.pop() ?? '';
  if (parts.length === 0) return { parentPath: '', path: '/', key };
  const path = `/${parts.join('/')}/`;
  const parentPath = parts.length === 1 ? '/' : `/${parts.slice(0, -1).join('/')}/`;
  return { parentPath, path, key };
}
