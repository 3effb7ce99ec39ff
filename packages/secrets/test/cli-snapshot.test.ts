import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, startCliHarness } from '../src/cli/testing.js';

// Issue 17: `ward operator raft snapshot save|restore`, run as the real binary.
describe('ward operator raft snapshot', () => {
  let cli: CliHarness;
  let dir: string;
  before(async () => {
    cli = await startCliHarness();
    dir = await mkdtemp(join(tmpdir(), 'ward-cli-snapshot-'));
  });
  after(async () => {
    await cli.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('saves to a file and restores it: later writes are gone', async () => {
    const file = join(dir, 'ward.snap');
    assert.equal((await cli.ward(['kv', 'put', 'secret/app', 'v=before'])).code, 0);
    const saved = await cli.ward(['operator', 'raft', 'snapshot', 'save', file]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal((await readFile(file)).subarray(0, 2).toString('hex'), '1f8b');
    assert.equal((await cli.ward(['kv', 'put', 'secret/app', 'v=after'])).code, 0);

    const restored = await cli.ward(['operator', 'raft', 'snapshot', 'restore', file]);
    assert.equal(restored.code, 0, restored.stderr);
    const read = await cli.ward(['kv', 'get', '-field=v', 'secret/app']);
    assert.equal(read.stdout.trim(), 'before');
  });

  it('reports a damaged snapshot and a missing file with a non-zero exit', async () => {
    const bad = join(dir, 'bad.snap');
    await writeFile(bad, 'not a snapshot');
    const refused = await cli.ward(['operator', 'raft', 'snapshot', 'restore', '-force', bad]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /failed to decompress snapshot/);
    const missing = await cli.ward(['operator', 'raft', 'snapshot', 'restore', join(dir, 'nothing.snap')]);
    assert.notEqual(missing.code, 0);
    assert.equal((await cli.ward(['kv', 'get', '-field=v', 'secret/app'])).stdout.trim(), 'before');
  });
});
