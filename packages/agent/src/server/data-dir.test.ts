import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../agent.js';
import { MemoryAgentNetwork } from '../testing.js';

// In memory on a fake clock; the data dir is on disk.
describe('a server with a data dir', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  const running: Agent[] = [];
  let dir = '';
  after(async () => {
    await Promise.all(running.map((a) => a.stop(false)));
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  /** Moves fake time on until `check` holds (up to 20 s of it), then asserts it. */
  const waitUntil = async (what: string, check: () => Promise<boolean> | boolean) => {
    for (let t = 0; t < 20_000 && !(await check()); t += 100) await network.run(100);
    assert.ok(await check(), what);
  };

  it('keeps its node ID and rejoins its known peers after a restart without -join', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-'));
    const a = await network.startAgent('a', { dataDir: join(dir, 'a') });
    running.push(a);
    const aAddr = `${a.gossip!.local.addr}:${a.gossip!.local.port}`;
    const b1 = await network.startAgent('b', { dataDir: join(dir, 'b'), join: [aAddr] });
    const firstId = b1.nodeId;
    const aliveOnA = (name: string) => a.gossip!.members().find((m) => m.name === name)?.state;
    await waitUntil('b joined', () => aliveOnA('b.global') === 'alive');
    const peersFile = join(dir, 'b', 'serf', 'peers.json');
    await waitUntil('peers file', async () => (await readFile(peersFile, 'utf8').catch(() => '')).includes(aAddr));
    await b1.stop(false);
    await waitUntil('b failed', () => aliveOnA('b.global') === 'dead');
    const b2 = await network.startAgent('b', { dataDir: join(dir, 'b'), bindAddr: b1.advertiseIp });
    running.push(b2);
    assert.equal(b2.nodeId, firstId);
    await waitUntil('b alive again', () => aliveOnA('b.global') === 'alive');
    await waitUntil('b sees a', () => b2.gossip!.members().some((m) => m.name === 'a.global' && m.state === 'alive'));
  });
});
