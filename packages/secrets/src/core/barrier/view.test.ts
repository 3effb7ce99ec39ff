import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { InmemStorage } from '../../storage/index.js';
import { createView } from './view.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createView', () => {
  it('reads, writes, lists and batches relative to its prefix', async () => {
    const inner = new InmemStorage();
    await inner.put('logical/other/k', bytes('theirs'));
    const view = createView(inner, 'logical/mine/');
    await view.put('a/b', bytes('1'));
    await view.transaction([
      { op: 'put', key: 'c', value: bytes('2') },
      { op: 'delete', key: 'a/b' },
    ]);
    assert.deepEqual(await inner.list('logical/mine/'), ['c']);
    assert.equal(new TextDecoder().decode(await view.get('c')), '2');
    assert.deepEqual(await view.list(''), ['c']);
    assert.equal(await view.get('k'), undefined);
    await view.delete('c');
    assert.deepEqual(await inner.list('logical/'), ['other/']);
  });

  it('refuses keys that would leave the prefix', async () => {
    const inner = new InmemStorage();
    await inner.put('logical/other/k', bytes('theirs'));
    const view = createView(inner, 'logical/mine/');
    for (const key of ['../other/k', 'a/../../other/k', '..', '/logical/other/k']) {
      await assert.rejects(view.get(key), InvalidRequestError, key);
      await assert.rejects(view.put(key, bytes('x')), InvalidRequestError, key);
      await assert.rejects(view.delete(key), InvalidRequestError, key);
      await assert.rejects(view.list(`${key}/`), InvalidRequestError, key);
      await assert.rejects(view.transaction([{ op: 'delete', key }]), InvalidRequestError, key);
    }
    assert.equal(new TextDecoder().decode(await inner.get('logical/other/k')), 'theirs');
    // Dots inside a name are fine.
    await view.put('a..b/.c', bytes('ok'));
    assert.deepEqual(await inner.list('logical/mine/'), ['a..b/']);
  });
});
