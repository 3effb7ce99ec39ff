import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { putJson } from '../../logical/storage.js';
import { InmemStorage } from '../../storage/index.js';
import type { PolicyParser } from './policy.js';
import { parsePolicy } from './policy-parser.js';
import { PolicyStore } from './policy-store.js';

/** A store over fresh memory, with a parser that counts its calls per policy name. */
async function testStore() {
  const parses = new Map<string, number>();
  const parse: PolicyParser = (name, text) => {
    parses.set(name, (parses.get(name) ?? 0) + 1);
    return parsePolicy(name, text);
  };
  const storage = new InmemStorage();
  const store = await PolicyStore.open({ storage, parse });
  return { store, storage, parses, total: () => [...parses.values()].reduce((a, b) => a + b, 0) };
}

const READ_SECRET = 'path "secret/*" { capabilities = ["read"] }';

function assertInvalid(message: string) {
  return (err: unknown) => err instanceof InvalidRequestError && err.message === message;
}

describe('PolicyStore: built-ins', () => {
  it('writes the default policy on first setup and keeps an edited one on reopen', async () => {
    const { store, storage } = await testStore();
    assert.deepEqual(await store.list(), ['default']);
    const acl = await store.acl(['default']);
    assert.equal(acl.allowed('read', 'auth/token/lookup-self').allowed, true);
    assert.equal(acl.allowed('update', 'sys/capabilities-self').allowed, true);
    assert.equal(acl.allowed('list', 'cubbyhole/').allowed, true);
    assert.equal(acl.allowed('read', 'identity/oidc/provider/p1/authorize').allowed, true);
    assert.equal(acl.allowed('read', 'secret/x').allowed, false);

    await store.write('default', READ_SECRET);
    const reopened = await PolicyStore.open({ storage });
    assert.equal((await reopened.read('default'))?.text, READ_SECRET);
  });

  it('grants the default templated rules only to a caller with an entity', async () => {
    const { store } = await testStore();
    const acl = await store.acl(['default']);
    assert.equal(acl.allowed('read', 'identity/entity/id/e1').allowed, false);
    assert.equal(acl.forEntity({ id: 'e1' }).allowed('read', 'identity/entity/id/e1').allowed, true);
  });

  it('refuses to change root or response-wrapping, or to delete default', async () => {
    const { store } = await testStore();
    await assert.rejects(store.write('root', READ_SECRET), assertInvalid('cannot update "root" policy'));
    await assert.rejects(store.write('ROOT', READ_SECRET), assertInvalid('cannot update "root" policy'));
    await assert.rejects(store.delete('root'), assertInvalid('cannot delete "root" policy'));
    await assert.rejects(
      store.write('response-wrapping', READ_SECRET),
      assertInvalid('cannot update "response-wrapping" policy'),
    );
    await assert.rejects(store.delete('response-wrapping'), assertInvalid('cannot delete "response-wrapping" policy'));
    await assert.rejects(store.delete('default'), assertInvalid('cannot delete default policy'));
  });

  it('reads root as empty and response-wrapping as its fixed rules, listing neither', async () => {
    const { store } = await testStore();
    assert.deepEqual(await store.read('root'), { name: 'root', text: '' });
    assert.match((await store.read('response-wrapping'))?.text ?? '', /cubbyhole\/response/);
    const acl = await store.acl(['response-wrapping']);
    assert.equal(acl.allowed('read', 'cubbyhole/response').allowed, true);
    assert.equal(acl.allowed('update', 'sys/wrapping/unwrap').allowed, true);
    assert.deepEqual(await store.list(), ['default']);
  });

  it('compiles root as allowing everything', async () => {
    const { store } = await testStore();
    assert.equal((await store.acl(['root'])).isRoot, true);
  });
});

describe('PolicyStore: CRUD', () => {
  it('lower-cases names and says so', async () => {
    const { store } = await testStore();
    assert.deepEqual(await store.write('Dev-Team', READ_SECRET), {
      name: 'dev-team',
      warnings: ['policy name was converted to dev-team'],
    });
    assert.deepEqual(await store.write('ops', READ_SECRET), { name: 'ops', warnings: [] });
    assert.equal((await store.read('DEV-TEAM'))?.name, 'dev-team');
    assert.deepEqual(await store.list(), ['default', 'dev-team', 'ops']);
  });

  it('stores nothing when the text does not parse', async () => {
    const { store } = await testStore();
    await assert.rejects(store.write('bad', 'path "a" { capabilities = ["fly"] }'), InvalidRequestError);
    assert.equal(await store.read('bad'), undefined);
  });

  it('deletes, and deleting a missing policy is fine', async () => {
    const { store } = await testStore();
    await store.write('ops', READ_SECRET);
    await store.delete('OPS');
    await store.delete('never-written');
    assert.equal(await store.read('ops'), undefined);
    assert.deepEqual(await store.list(), ['default']);
  });
});

describe('PolicyStore: compiled ACLs', () => {
  it('parses a policy when it is written, never again to build ACLs for requests', async () => {
    const { store, storage, total } = await testStore();
    await store.write('a', READ_SECRET);
    await store.write('b', 'path "kv/*" { capabilities = ["list"] }');
    const afterWrites = total();
    const first = await store.acl(['a', 'b', 'default']);
    assert.equal(total(), afterWrites);
    const again = await store.acl(['default', 'B', 'a', 'a']);
    assert.equal(again, first, 'the same compiled ACL, whatever the order or case of the names');
    await store.acl(['a']);
    assert.equal(total(), afterWrites);

    // A store opened over existing data parses each policy on first use only.
    const parses: string[] = [];
    const reopened = await PolicyStore.open({
      storage,
      parse: (name, text) => {
        parses.push(name);
        return parsePolicy(name, text);
      },
    });
    await reopened.acl(['a', 'b']);
    await reopened.acl(['b', 'a']);
    await reopened.acl(['a', 'default']);
    assert.deepEqual(parses.sort(), ['a', 'b', 'default']);
  });

  it('sees a changed or deleted policy at once, re-parsing only that one', async () => {
    const { store, parses } = await testStore();
    await store.write('a', READ_SECRET);
    await store.write('b', 'path "kv/*" { capabilities = ["list"] }');
    assert.equal((await store.acl(['a', 'b'])).allowed('read', 'secret/x').allowed, true);
    const parsesOfB = parses.get('b');

    await store.write('a', 'path "secret/*" { capabilities = ["deny"] }');
    const changed = await store.acl(['a', 'b']);
    assert.equal(changed.allowed('read', 'secret/x').allowed, false);
    assert.equal(changed.allowed('list', 'kv/').allowed, true);
    assert.equal(parses.get('b'), parsesOfB);

    await store.delete('b');
    assert.equal((await store.acl(['a', 'b'])).allowed('list', 'kv/').allowed, false);
  });

  it('sees a policy changed by another server once its name is invalidated', async () => {
    const { store, storage } = await testStore();
    await store.write('a', READ_SECRET);
    assert.equal((await store.acl(['a'])).allowed('read', 'secret/x').allowed, true);
    // Another server sharing the storage rewrites it; only its change feed can tell us.
    await putJson(storage, 'a', { name: 'a', policy: 'path "secret/*" { capabilities = ["deny"] }' });
    store.invalidate('a');
    assert.equal((await store.acl(['a'])).allowed('read', 'secret/x').allowed, false);
  });

  it('ignores names of policies that do not exist (yet)', async () => {
    const { store } = await testStore();
    const acl = await store.acl(['later']);
    assert.equal(acl.allowed('read', 'secret/x').allowed, false);
    await store.write('later', READ_SECRET);
    assert.equal((await store.acl(['later'])).allowed('read', 'secret/x').allowed, true);
  });

  it('shares one build among concurrent requests for the same set', async () => {
    const { storage } = await testStore();
    await putJson(storage, 'a', { name: 'a', policy: READ_SECRET });
    let parses = 0;
    const store = await PolicyStore.open({
      storage,
      parse: (name, text) => {
        parses++;
        return parsePolicy(name, text);
      },
    });
    const [x, y] = await Promise.all([store.acl(['a']), store.acl(['a'])]);
    assert.equal(x, y);
    assert.equal(parses, 1);
  });
});

describe('PolicyStore: a long policy (issue 28 point 9)', () => {
  const text = Array.from({ length: 5_000 }, (_, i) => `path "s/app${i}/*" {\n  capabilities = ["read"]\n}\n`).join('');

  /** Milliseconds of this thread's CPU that `fn` costs (other threads, and waiting, not counted). */
  async function threadCpuMs(fn: () => Promise<unknown>): Promise<number> {
    const before = process.threadCpuUsage();
    await fn();
    const used = process.threadCpuUsage(before);
    return (used.user + used.system) / 1000;
  }

  it('parses 5,000 paths off the event loop thread: writing and compiling cost this thread little', async () => {
    const store = await PolicyStore.open({ storage: new InmemStorage() });
    const inline = await threadCpuMs(() => parsePolicy('big', text));
    const written = await threadCpuMs(() => store.write('big', text));
    console.log(`# parse on this thread ${Math.round(inline)} ms; write ${Math.round(written)} ms`);
    assert.ok(
      written < inline / 2,
      `write used ${Math.round(written)} ms of this thread (parse: ${Math.round(inline)})`,
    );
    const acl = await store.acl(['big']);
    assert.ok(acl, 'the first ACL naming it parses it (off-thread too) and compiles');
    await assert.rejects(store.write('bad', `${text}path {`), InvalidRequestError);
  });
});
