import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storageCases } from '../storage.case.js';
import { FileStorage } from './file.js';
import { encodeJournal } from './file-journal.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

describe('FileStorage', () => {
  let root: string;
  let n = 0;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ward-file-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  storageCases(async () => new FileStorage({ path: join(root, `case-${n++}`) }));

  it('keeps each key in its own file, `_` + its last part, under a folder per `/`', async () => {
    const path = join(root, 'layout');
    const s = new FileStorage({ path });
    await s.put('logical/abc/config', bytes('v'));
    await s.put('_odd/.dot/', bytes('w'));
    assert.deepEqual(await readdir(join(path, 'data', 'logical', 'abc')), ['_config']);
    assert.deepEqual(await readdir(join(path, 'data', '~_odd', '~.dot')), ['_']);
    assert.deepEqual(await s.list(''), ['_odd/', 'logical/']);
    assert.deepEqual(await s.list('_odd/.dot/'), ['']);
    await s.close();
  });

  it('reopens with everything written, and drops the folders a delete left empty', async () => {
    const path = join(root, 'reopen');
    const first = new FileStorage({ path });
    await first.put('a/b/c', bytes('1'));
    await first.put('a/d', bytes('2'));
    await first.delete('a/b/c');
    await first.close();
    const again = new FileStorage({ path });
    assert.equal(await again.get('a/b/c'), undefined);
    assert.equal(text(await again.get('a/d')), '2');
    assert.deepEqual(await readdir(join(path, 'data', 'a')), ['_d']);
    await again.close();
  });

  it('completes at open a transaction a crash interrupted (its journal was written whole)', async () => {
    const path = join(root, 'journal');
    const first = new FileStorage({ path });
    await first.put('x', bytes('old'));
    await first.close();
    // What a crash after the journal and before its last operation leaves behind.
    const journal = encodeJournal([
      { op: 'put', key: 'x', value: bytes('new') },
      { op: 'put', key: 'y/z', value: bytes('added') },
      { op: 'delete', key: 'gone' },
    ]);
    await writeFile(join(path, '.transaction'), journal);
    const again = new FileStorage({ path });
    assert.equal(text(await again.get('x')), 'new');
    assert.equal(text(await again.get('y/z')), 'added');
    assert.ok(!(await readdir(path)).includes('.transaction'));
    await again.close();
  });

  it('removes at open the views and half-built trees a crash left, keeping the live tree', async () => {
    const path = join(root, 'leftovers');
    const first = new FileStorage({ path });
    await first.put('k', bytes('v'));
    await first.openSnapshot(); // never closed: the process "died" holding it
    await first.close();
    const again = new FileStorage({ path });
    assert.equal(text(await again.get('k')), 'v');
    assert.deepEqual((await readdir(path)).sort(), ['data', 'tree-0']);
    await again.replaceAll(
      (async function* () {
        yield { key: 'r', value: bytes('restored') };
      })(),
    );
    assert.deepEqual((await readdir(path)).sort(), ['data', 'tree-1']);
    assert.equal(text(await again.get('r')), 'restored');
    await again.close();
  });
});
