import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileSink } from './file-sink.js';

describe('file sink', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-sink-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('replaces the file with the new token, with the configured mode, and leaves no temporary file', async () => {
    const path = join(dir, 'token');
    const sink = createFileSink({ path, mode: 0o640 });
    await sink.write('first');
    await sink.write('second');
    assert.equal(await readFile(path, 'utf8'), 'second');
    assert.equal((await stat(path)).mode & 0o777, 0o640);
    assert.deepEqual(await readdir(dir), ['token']);
  });

  it('sets modes the umask would remove', async () => {
    const path = join(dir, 'shared');
    await createFileSink({ path, mode: 0o666 }).write('t');
    assert.equal((await stat(path)).mode & 0o777, 0o666);
  });

  it('fails, leaving nothing behind, when the directory does not exist', async () => {
    await assert.rejects(createFileSink({ path: join(dir, 'missing', 'token'), mode: 0o600 }).write('t'));
    assert.deepEqual((await readdir(dir)).sort(), ['shared', 'token']);
  });
});
