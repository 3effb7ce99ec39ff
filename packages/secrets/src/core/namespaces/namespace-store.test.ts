import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { InmemStorage } from '../../storage/index.js';
import { NamespaceStore, parentPath, ROOT_NAMESPACE } from './namespace-store.js';

async function store(storage = new InmemStorage()) {
  const s = new NamespaceStore({ storage, random: new SeededRandom(1) });
  await s.load();
  return { s, storage };
}

describe('NamespaceStore', () => {
  it('resolves header and path the same whichever way the namespace is split', async () => {
    const { s } = await store();
    const ns1 = await s.create(ROOT_NAMESPACE, 'ns1', {});
    const ns2 = await s.create(ns1, 'ns2', { team: 'a' });
    assert.equal(ns2.path, 'ns1/ns2/');
    assert.match(ns2.id, /^[0-9A-Za-z]{6}$/);
    const expected = { namespace: ns2, path: 'secret/foo' };
    assert.deepEqual(s.resolve('ns1/ns2/', 'secret/foo'), expected);
    assert.deepEqual(s.resolve('ns1/', 'ns2/secret/foo'), expected);
    assert.deepEqual(s.resolve('', 'ns1/ns2/secret/foo'), expected);
    assert.deepEqual(s.resolve('', 'secret/foo'), { namespace: ROOT_NAMESPACE, path: 'secret/foo' });
  });

  it('refuses a header naming no namespace', async () => {
    const { s } = await store();
    assert.throws(() => s.resolve('nope/', 'secret/x'), NotFoundError);
  });

  it('keeps namespaces across a reload and lists direct children only', async () => {
    const { s, storage } = await store();
    const ns1 = await s.create(ROOT_NAMESPACE, 'ns1', {});
    await s.create(ns1, 'ns2', {});
    await s.create(ROOT_NAMESPACE, 'other', {});
    const { s: again } = await store(storage);
    assert.deepEqual(
      again
        .children(ROOT_NAMESPACE)
        .map((n) => n.path)
        .sort(),
      ['ns1/', 'other/'],
    );
    assert.deepEqual(
      again.children(again.byPath('ns1/') ?? ROOT_NAMESPACE).map((n) => n.path),
      ['ns1/ns2/'],
    );
  });

  it('refuses reserved, malformed and duplicate names', async () => {
    const { s } = await store();
    for (const name of ['sys', 'root', 'a/b', 'a b', 'x*', '', 'end.']) {
      await assert.rejects(s.create(ROOT_NAMESPACE, name, {}), InvalidRequestError, name);
    }
    await s.create(ROOT_NAMESPACE, 'dup', {});
    await assert.rejects(s.create(ROOT_NAMESPACE, 'dup', {}), InvalidRequestError);
  });

  it('merges metadata on patch and removes keys set to null', async () => {
    const { s } = await store();
    const ns = await s.create(ROOT_NAMESPACE, 'm', { a: '1', b: '2' });
    const patched = await s.patch(ns, { b: null, c: '3' });
    assert.deepEqual(patched.custom_metadata, { a: '1', c: '3' });
  });

  it('computes parent paths', () => {
    assert.equal(parentPath('ns1/ns2/'), 'ns1/');
    assert.equal(parentPath('ns1/'), '');
  });
});
