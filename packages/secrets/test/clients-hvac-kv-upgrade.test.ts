import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// hvac's users upgrade KV version 1 at secret/ (a configured server's) to version 2 as with the
// established server, then use `client.secrets.kv.v2.*` with its default mount point `secret`.

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../test/fixtures/clients/hvac_kv_upgrade.py', import.meta.url));
const run = promisify(execFile);

type Step = { ok: unknown } | { error: string; errors: string[] };

describe('hvac upgrades secret/ from KV version 1 to 2', () => {
  let t: TestServer | undefined;
  let seen: Record<string, Step>;
  const ok = <T>(name: string): T => {
    const step = seen[name];
    assert.ok(step && 'ok' in step, `${name}: ${JSON.stringify(step)}`);
    return step.ok as T;
  };

  before(async () => {
    t = await startTestServer();
    const { stdout } = await run(PYTHON, [SCRIPT, t.url, t.rootToken], { timeout: 120_000 });
    seen = JSON.parse(stdout) as Record<string, Step>;
  });
  after(() => t?.stop());

  it('tune answers with the established warning', () => {
    const tune = ok<{ warnings: string[] }>('tune');
    assert.deepEqual(tune.warnings, [
      'Upgrading mount from version 1 to version 2. This mount will be unavailable for a brief period and will resume service shortly.',
    ]);
  });

  it('every v1 key reads back through kv.v2 as version 1, with metadata; writes add version 2', () => {
    const top = ok<{ data: unknown; metadata: { version: number } }>('read_top');
    assert.deepEqual(top.data, { password: 's3cret' });
    assert.equal(top.metadata.version, 1);
    assert.deepEqual(
      ok('read_apps'),
      Array.from({ length: 30 }, (_, i) => ({ user: `u${i}`, n: i })),
    );
    assert.equal(ok<string[]>('list').length, 30);
    const meta = ok<{ current_version: number; versions: Record<string, unknown> }>('metadata_top');
    assert.equal(meta.current_version, 1);
    assert.deepEqual(Object.keys(meta.versions), ['1']);
    assert.equal(ok<{ version: number }>('write_top').version, 2);
    assert.deepEqual(ok('history'), ['s3cret', 'new']);
  });

  it('the mount shows version 2, and going back to version 1 is refused', () => {
    assert.deepEqual(ok<{ options: unknown }>('mount').options, { version: '2' });
    const down = seen.downgrade;
    assert.ok(down && 'error' in down, JSON.stringify(down));
    assert.equal(down.error, 'InvalidRequest');
    assert.match(down.errors.join(' '), /cannot downgrade mount from version 2/);
  });
});
