import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePostgresConfig } from './postgresql-config.js';

describe('storage "postgresql" block (issue 29)', () => {
  const url = 'postgres://ward:pw@db.example.com:5432/ward?sslmode=require';

  it('takes the established keys, with the established defaults', () => {
    assert.deepEqual(parsePostgresConfig({ connection_url: url }, {}), {
      connectionUrl: url,
      table: 'vault_kv_store',
      maxParallel: 128,
      maxIdleConnections: 2,
      haEnabled: false,
      haTable: 'vault_ha_locks',
      lockTtlSeconds: 15,
    });
    const full = parsePostgresConfig(
      {
        connection_url: url,
        table: 'kv',
        max_parallel: '16',
        max_idle_connections: 4,
        ha_enabled: 'true',
        ha_table: 'locks',
        lock_ttl: '5s',
      },
      {},
    );
    assert.deepEqual(
      [full.table, full.maxParallel, full.maxIdleConnections, full.haEnabled, full.haTable, full.lockTtlSeconds],
      ['kv', 16, 4, true, 'locks', 5],
    );
  });

  it("reads ha_enabled in Go's boolean words", () => {
    for (const [word, on] of [
      ['1', true],
      ['T', true],
      ['FALSE', false],
      [false, false],
    ] as const) {
      assert.equal(parsePostgresConfig({ connection_url: url, ha_enabled: word }, {}).haEnabled, on, String(word));
    }
  });

  it('lets VAULT_PG_CONNECTION_URL win over connection_url, as established', () => {
    const env = { VAULT_PG_CONNECTION_URL: 'postgresql://other/db' };
    assert.equal(parsePostgresConfig({ connection_url: url }, env).connectionUrl, 'postgresql://other/db');
    assert.equal(parsePostgresConfig({}, env).connectionUrl, 'postgresql://other/db');
  });

  it('refuses a missing or malformed connection_url and bad numbers, naming the key', () => {
    for (const [block, key] of [
      [{}, 'connection_url'],
      [{ connection_url: 'db.example.com' }, 'connection_url'],
      [{ connection_url: url, max_parallel: '0' }, 'max_parallel'],
      [{ connection_url: url, max_idle_connections: 'many' }, 'max_idle_connections'],
      [{ connection_url: url, ha_enabled: 'yes' }, 'ha_enabled'],
      [{ connection_url: url, lock_ttl: '1s' }, 'lock_ttl'],
    ] as const) {
      assert.throws(
        () => parsePostgresConfig(block, {}),
        (err: Error & { code?: string }) => err.code === 'invalid_request' && err.message.includes(key),
        JSON.stringify(block),
      );
    }
  });
});
