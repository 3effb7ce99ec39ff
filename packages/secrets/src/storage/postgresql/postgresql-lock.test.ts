import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import { PostgresStorage } from './postgresql.js';
import { parsePostgresConfig } from './postgresql-config.js';
import { PostgresHaLock } from './postgresql-lock.js';

// Issue 29: the established HA lock (a row in ha_table, valid_until judged by the database's clock).
describe('PostgresHaLock', () => {
  let server: PostgresServer;
  let storage: PostgresStorage;
  before(async () => {
    server = await PostgresServer.start();
    const url = await server.createDatabase();
    storage = new PostgresStorage(parsePostgresConfig({ connection_url: url, ha_enabled: true }, {}));
    await storage.get('warm-up'); // creates the tables
  });
  after(async () => {
    await storage?.close();
    await server?.stop();
  });

  const lock = (value: string, ttlSeconds = 2) =>
    new PostgresHaLock({ pool: storage.pool, table: storage.names.ha, key: 'core/lock', value, ttlSeconds });

  it('is held by one server at a time; released, the next waiting one takes it', async () => {
    const a = lock('a');
    const b = lock('b');
    await a.acquire();
    assert.equal(await b.holder(), 'a');
    let bHolds = false;
    const taken = b.acquire().then(() => {
      bHolds = true;
    });
    await new Promise((r) => setTimeout(r, 2_500)); // past the TTL: a keeps renewing, so b still waits
    assert.equal(bHolds, false);
    await a.release();
    await taken;
    assert.equal(await a.holder(), 'b');
    await b.release();
    assert.equal(await b.holder(), undefined);
  });

  it('frees itself a TTL after its holder stops renewing (a killed server), judged by the database', async () => {
    const { rows } = await storage.pool.query('SELECT 1');
    assert.equal(rows.length, 1);
    // A holder that died: its row, valid for one more second, and nobody renewing it.
    await storage.pool.query(
      `INSERT INTO ${storage.names.ha} VALUES ('core/lock', 'dead-identity', 'dead', NOW() + INTERVAL '1 second')`,
    );
    const standby = lock('standby');
    assert.equal(await standby.holder(), 'dead');
    const started = Date.now();
    await standby.acquire();
    assert.ok(Date.now() - started >= 500, 'waited for the dead holder’s row to expire');
    assert.equal(await standby.holder(), 'standby');
    await standby.release();
  });

  it('reports the lock lost when another server took its row', async () => {
    const a = lock('a', 3);
    await a.acquire();
    let lost = false;
    a.onLost(() => {
      lost = true;
    });
    await storage.pool.query(`UPDATE ${storage.names.ha} SET ha_identity = 'thief', ha_value = 'thief'`);
    for (let i = 0; i < 40 && !lost; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(lost, true);
    await a.release();
    await storage.pool.query(`DELETE FROM ${storage.names.ha}`);
  });

  it('steps down (reports the lock lost) when the database stays unreachable for the TTL', async () => {
    const url = await server.createDatabase();
    const name = new URL(url).pathname.slice(1);
    const cut = new PostgresStorage(parsePostgresConfig({ connection_url: url, ha_enabled: true }, {}));
    await cut.get('warm-up');
    const held = new PostgresHaLock({
      pool: cut.pool,
      table: cut.names.ha,
      key: 'core/lock',
      value: 'a',
      ttlSeconds: 2,
    });
    await held.acquire();
    let lostAt = 0;
    held.onLost(() => {
      lostAt = Date.now();
    });
    // Nothing can reach the database any more: the renewals fail rather than being refused by another holder.
    const cutAt = Date.now();
    await storage.pool.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await storage.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    for (let i = 0; i < 50 && lostAt === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(lostAt > 0, 'the lock was reported lost');
    assert.ok(lostAt - cutAt < 2_000, 'before the row expired in the database');
    await held.release();
    await cut.close().catch(() => {});
  });

  it('refuses to wait once released', async () => {
    const a = lock('a');
    await a.acquire();
    const b = lock('b');
    const waiting = b.acquire();
    await b.release();
    await assert.rejects(waiting, { code: 'internal' });
    await a.release();
  });
});
