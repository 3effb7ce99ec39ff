import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import { changeFeedCases } from '../change-feed.case.js';
import type { StorageChange } from '../change-feed.js';
import { PostgresStorage } from './postgresql.js';
import { PostgresChangeFeed } from './postgresql-change-feed.js';
import { parsePostgresConfig } from './postgresql-config.js';

const bytes = (text: string) => new TextEncoder().encode(text);

// Issue 29: standbys on PostgreSQL follow the active server's writes through LISTEN/NOTIFY, as on etcd.
describe('PostgresChangeFeed', () => {
  let server: PostgresServer;
  let url: string;
  let tables = 0;
  before(async () => {
    server = await PostgresServer.start();
    url = await server.createDatabase();
  });
  after(() => server?.stop());

  // Two pools on one table, as two server processes open it; each fixture has a table of its own.
  const open = (table: string) =>
    new PostgresStorage(parsePostgresConfig({ connection_url: url, table, ha_enabled: true }, {}));
  changeFeedCases(async () => {
    const table = `feed_${++tables}`;
    const reader = open(table);
    const writer = open(table);
    return {
      feed: new PostgresChangeFeed(reader),
      writer,
      writerFeed: new PostgresChangeFeed(writer),
      async close() {
        await reader.close();
        await writer.close();
      },
    };
  });

  it('reads a change too large for a notification from the change log, and a restore as everything', async () => {
    const table = `feed_${++tables}`;
    const reader = open(table);
    const writer = open(table);
    const feed = new PostgresChangeFeed(reader);
    const seen: StorageChange[] = [];
    try {
      await feed.start(async (change) => {
        seen.push(change);
      });
      const many = Array.from({ length: 400 }, (_, i) => `a-rather-long-folder-name/key-${i}`);
      await writer.transaction(many.map((key) => ({ op: 'put', key, value: bytes('v') })));
      await writer.put('after', bytes('v'));
      await writer.replaceAll(
        (async function* () {
          yield { key: 'restored', value: bytes('v') };
        })(),
      );
      for (let i = 0; i < 200 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal(seen.length, 3);
      assert.deepEqual(seen[0]?.keys.length, 400);
      assert.deepEqual(seen[1]?.keys, ['after']);
      assert.equal(seen[2]?.isEverything, true);
      assert.deepEqual(
        seen.map((s) => s.revision),
        [1, 2, 3],
      );
    } finally {
      await feed.stop();
      await reader.close();
      await writer.close();
    }
  });
});
