import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { changeFeedCases } from '../change-feed.case.js';
import type { StorageChange } from '../change-feed.js';
import { SqliteStorage } from './sqlite.js';
import { SqliteChangeFeed } from './sqlite-change-feed.js';

const bytes = (text: string) => new TextEncoder().encode(text);

// Issue 36: the worker processes of one server share a SQLite file and follow each other's writes.
describe('SqliteChangeFeed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-sqlite-feed-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  // Two handles on one file, as two worker processes open it.
  const pair = () => {
    const path = join(dir, `db-${n++}`, 'ward.db');
    const writer = new SqliteStorage({ path, hasChangeLog: true });
    const reader = new SqliteStorage({ path, hasChangeLog: true });
    return { reader, writer };
  };
  changeFeedCases(async () => {
    const { reader, writer } = pair();
    return {
      feed: new SqliteChangeFeed(reader),
      writer,
      writerFeed: new SqliteChangeFeed(writer),
      async close() {
        await reader.close();
        await writer.close();
      },
    };
  });

  it('reports a restore, and a log trimmed past what it saw, as everything', async () => {
    const { reader, writer } = pair();
    const feed = new SqliteChangeFeed(reader);
    const seen: StorageChange[] = [];
    try {
      await feed.start(async (change) => {
        seen.push(change);
      });
      await writer.put('before', bytes('v'));
      await writer.replaceAll(
        (async function* () {
          yield { key: 'restored', value: bytes('v') };
        })(),
      );
      const waitFor = async (count: number) => {
        for (let i = 0; i < 200 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 10));
      };
      await waitFor(2);
      // Three writes, and the trim of the first two, between two polls: the feed cannot know what they changed.
      const raw = new Database(writer.path);
      raw.transaction(() => {
        for (let i = 0; i < 3; i++) raw.exec(`INSERT INTO changes (keys) VALUES ('["lost"]')`);
        raw.exec('DELETE FROM changes WHERE revision <= 4');
      })();
      raw.close();
      await waitFor(3);
      assert.deepEqual(
        seen.map((s) => [s.revision, s.keys, s.isEverything]),
        [
          [1, ['before'], false],
          [2, [], true],
          [5, [], true],
        ],
      );
    } finally {
      await feed.stop();
      await reader.close();
      await writer.close();
    }
  });

  it('writes no change log when the file is not shared', async () => {
    const s = new SqliteStorage({ path: join(dir, `db-${n++}`, 'ward.db') });
    await s.put('k', bytes('v'));
    assert.equal(s.writtenRevision, 0);
    await s.close();
  });
});
