import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AgentProcess, FAST_GOSSIP, runCli, statuses, waitUntil } from './harness.js';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');
const server = (name: string, ...extra: string[]) =>
  AgentProcess.start(['-server', `-node=${name}`, '-bootstrap-expect=1', '-acl-enabled', ...FAST_GOSSIP, ...extra]);

async function bootstrap(a: AgentProcess): Promise<string> {
  await waitUntil('a leader', async () => (await a.fetch('/v1/agent/health')).status === 200);
  return (await a.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
}

async function joinVia(a: AgentProcess, target: AgentProcess): Promise<number> {
  const res = await a.json<{ num_joined: number }>(`/v1/agent/join?address=${target.serfAddr}`, { method: 'POST' });
  return res.num_joined;
}

// Issue 28 point 1: join stays open (as the spec says), and is harmless: a node without the
// gossip key is never heard, so it cannot enter the pool, let alone hand it its ACL state.
// Here the binary and its CLI on real sockets; the rogue clusters are kept out in memory
// (src/server/gossip-encryption.test.ts).
describe('gossip encryption between real agents', () => {
  let s1: AgentProcess;
  let s2: AgentProcess;
  let root = '';

  before(async () => {
    s1 = await server('s1', `-encrypt=${K1}`);
    root = await bootstrap(s1);
    s2 = await AgentProcess.start([
      '-server',
      '-node=s2',
      '-bootstrap-expect=2',
      '-acl-enabled',
      ...FAST_GOSSIP,
      `-encrypt=${K1}`,
    ]);
    assert.equal(await joinVia(s2, s1), 1);
    await waitUntil('s1 sees s2', async () => (await statuses(s1, root))['s2.global'] === 'alive');
  });
  after(async () => {
    await s1?.kill();
    await s2?.kill();
  });

  it('rotates the key with operator gossip keyring, and then only the new key joins', async () => {
    const cli = (...args: string[]) =>
      runCli(['operator', 'gossip', 'keyring', ...args, `-address=${s1.url}`, `-token=${root}`]);
    const generated = await runCli(['operator', 'gossip', 'keyring', 'generate']);
    assert.equal(generated.code, 0);
    assert.equal(Buffer.from(generated.stdout.trim(), 'base64').length, 32);
    const denied = await runCli(['operator', 'gossip', 'keyring', 'list', `-address=${s1.url}`]);
    assert.equal(denied.code, 1, 'anonymous may not list keys');

    assert.equal((await cli('install', K2)).code, 0);
    assert.equal((await cli('list')).stdout, `Gathering installed encryption keys...\nKey\n${K1}\n${K2}\n`);
    const both = await s1.json<{ Keys: Record<string, number> }>('/v1/agent/keyring/list', { token: root });
    assert.deepEqual(both.Keys, { [K1]: 2, [K2]: 2 });
    const removePrimary = await cli('remove', K1);
    assert.equal(removePrimary.code, 1);
    assert.match(removePrimary.stderr, /2\/2 nodes reported failure: Removing the primary key is not allowed/);
    assert.equal((await cli('use', K2)).code, 0);
    assert.equal((await cli('remove', K1)).code, 0);
    const listed = await s1.json<{ Keys: Record<string, number>; NumNodes: number }>('/v1/agent/keyring/list', {
      token: root,
    });
    assert.deepEqual(listed, { Messages: {}, Keys: { [K2]: 2 }, NumNodes: 2 });

    // The pool still hears itself under the new key.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(await statuses(s1, root), { 's1.global': 'alive', 's2.global': 'alive' });
    const stale = await AgentProcess.start(['-server', '-node=s3', '-acl-enabled', ...FAST_GOSSIP, `-encrypt=${K1}`]);
    try {
      assert.equal(await joinVia(stale, s1), 0);
    } finally {
      await stale.kill();
    }
    const fresh = await AgentProcess.start(['-server', '-node=s4', '-acl-enabled', ...FAST_GOSSIP, `-encrypt=${K2}`]);
    try {
      assert.equal(await joinVia(fresh, s1), 1);
    } finally {
      await fresh.kill();
    }
  });
});
