import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SeededRandom, silentLogger } from '@ward/base';
import { GossipKeys } from './gossip-keys.js';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(16, 2).toString('base64');
const random = new SeededRandom(3);

describe('GossipKeys', () => {
  it('seeds the keyring from encrypt once, keeps rotations in the data dir, and the kept keyring wins', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ward-keyring-'));
    try {
      const first = GossipKeys.open({ dataDir, encrypt: K1, random, log: silentLogger });
      assert.deepEqual(first.apply('install', K2), [K1, K2]);
      assert.deepEqual(first.apply('use', K2), [K2, K1]);
      assert.deepEqual(first.apply('remove', K1), [K2]);
      assert.equal(statSync(join(dataDir, 'serf', 'keyring')).mode & 0o777, 0o600);
      // Restarted with the old encrypt key still in its config: the rotation holds.
      const again = GossipKeys.open({ dataDir, encrypt: K1, random, log: silentLogger });
      assert.deepEqual(again.apply('list', ''), [K2]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses keyring operations without gossip encryption', () => {
    const none = GossipKeys.open({ dataDir: '', encrypt: '', random, log: silentLogger });
    assert.equal(none.isEnabled, false);
    assert.throws(() => none.apply('list', ''), { code: 'invalid_request' });
  });
});
