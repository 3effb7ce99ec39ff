import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { storageCases } from '../storage.case.js';
import { type EtcdProcess, startEtcd } from '../testing.js';
import { EtcdStorage } from './etcd.js';

describe('EtcdStorage', () => {
  let etcd: EtcdProcess;
  let stores = 0;
  before(async () => {
    etcd = await startEtcd();
  });
  after(() => etcd?.stop());

  // One etcd for the suite; each backend gets a prefix of its own, so each starts empty.
  storageCases(async () => new EtcdStorage({ hosts: [etcd.url], prefix: `ward-${++stores}/` }));

  it('keeps its keys under its prefix and a sibling prefix apart', async () => {
    const a = new EtcdStorage({ hosts: [etcd.url], prefix: 'shared/a/' });
    const ab = new EtcdStorage({ hosts: [etcd.url], prefix: 'shared/ab/' });
    try {
      await a.put('k', Buffer.from('1'));
      await ab.put('k', Buffer.from('2'));
      assert.deepEqual(await a.list(''), ['k']);
      assert.equal(Buffer.from((await a.get('k')) ?? []).toString(), '1');
      const { kvs } = await a.client.kv.range({ key: Buffer.from('shared/a/k') });
      assert.equal(kvs[0]?.value.toString(), '1');
      await a.replaceAll((async function* () {})());
      assert.equal(Buffer.from((await ab.get('k')) ?? []).toString(), '2');
    } finally {
      await a.close();
      await ab.close();
    }
  });

  it('finishes a restore that was interrupted mid-swap when it next starts', async () => {
    const first = new EtcdStorage({ hosts: [etcd.url], prefix: 'crash/' });
    await first.put('old', Buffer.from('x'));
    // What a crash after staging and marking, before the swap, leaves behind.
    await first.client.put('crash.restore/new').value('restored');
    await first.client.put('crash.restore-swap').value('1');
    await first.close();
    const second = new EtcdStorage({ hosts: [etcd.url], prefix: 'crash/' });
    try {
      assert.deepEqual(await second.list(''), ['new']);
      assert.equal(await second.client.get('crash.restore-swap'), null);
    } finally {
      await second.close();
    }
  });

  it('lists a prefix with more children than one page, folding deep keys', async () => {
    const s = new EtcdStorage({ hosts: [etcd.url], prefix: 'paged/' });
    try {
      const ops = [];
      for (let i = 0; i < 1_200; i++)
        ops.push({ op: 'put' as const, key: `d/${String(i).padStart(4, '0')}/x/y`, value: Buffer.of(1) });
      for (let i = 0; i < ops.length; i += 100) await s.transaction(ops.slice(i, i + 100));
      await s.put('d/leaf', Buffer.of(1));
      const listed = await s.list('d/');
      assert.equal(listed.length, 1_201);
      assert.equal(listed[0], '0000/');
      assert.equal(listed.at(-1), 'leaf');
    } finally {
      await s.close();
    }
  });
});
