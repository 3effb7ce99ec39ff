import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type HvacSteps, runHvacScript } from './hvac-steps.js';

// hvac's users upgrade KV version 1 at secret/ (a configured server's) to version 2 as with the
// established server, then use `client.secrets.kv.v2.*` with its default mount point `secret`.

describe('hvac upgrades secret/ from KV version 1 to 2', () => {
  let t: TestServer | undefined;
  let steps: HvacSteps;

  before(async () => {
    t = await startTestServer();
    steps = await runHvacScript('hvac_kv_upgrade.py', [t.url, t.rootToken], 120_000);
  });
  after(() => t?.stop());

  it('tune answers with the established warning', () => {
    assert.deepEqual(steps.ok<{ warnings: string[] }>('tune').warnings, [
      'Upgrading mount from version 1 to version 2. This mount will be unavailable for a brief period and will resume service shortly.',
    ]);
  });

  it('every v1 key reads back through kv.v2 as version 1, with metadata; writes add version 2', () => {
    const top = steps.ok<{ data: unknown; metadata: { version: number } }>('read_top');
    assert.deepEqual(top.data, { password: 's3cret' });
    assert.equal(top.metadata.version, 1);
    assert.deepEqual(
      steps.ok('read_apps'),
      Array.from({ length: 30 }, (_, i) => ({ user: `u${i}`, n: i })),
    );
    assert.equal(steps.ok<string[]>('list').length, 30);
    const meta = steps.ok<{ current_version: number; versions: Record<string, unknown> }>('metadata_top');
    assert.equal(meta.current_version, 1);
    assert.deepEqual(Object.keys(meta.versions), ['1']);
    assert.equal(steps.ok<{ version: number }>('write_top').version, 2);
    assert.deepEqual(steps.ok('history'), ['s3cret', 'new']);
  });

  it('the mount shows version 2, and going back to version 1 is refused', () => {
    assert.deepEqual(steps.ok<{ options: unknown }>('mount').options, { version: '2' });
    const down = steps.failed('downgrade');
    assert.equal(down.error, 'InvalidRequest');
    assert.match(down.errors.join(' '), /cannot downgrade mount from version 2/);
  });
});
