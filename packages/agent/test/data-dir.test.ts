import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestAgent, type TestAgent } from '../src/testing.js';
import { waitUntil } from './harness.js';

describe('a server with a data dir', () => {
  const running: TestAgent[] = [];
  let dir = '';
  after(async () => {
    await Promise.all(running.map((a) => a.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps its node ID and rejoins its known peers after a restart without -join', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-'));
    const a = await startTestAgent({ name: 'a', dataDir: join(dir, 'a') });
    running.push(a);
    const b1 = await startTestAgent({
      name: 'b',
      dataDir: join(dir, 'b'),
      join: [`127.0.0.1:${a.agent.gossip!.local.port}`],
    });
    const firstId = b1.agent.nodeId;
    const aliveOnA = (name: string) => a.agent.gossip!.members().find((m) => m.name === name)?.state;
    await waitUntil('b joined', () => aliveOnA('b.global') === 'alive');
    const peersFile = join(dir, 'b', 'serf', 'peers.json');
    const aAddr = `127.0.0.1:${a.agent.gossip!.local.port}`;
    await waitUntil('peers file', async () => (await readFile(peersFile, 'utf8').catch(() => '')).includes(aAddr));
    await b1.stop();
    await waitUntil('b failed', () => aliveOnA('b.global') === 'dead');
    const b2 = await startTestAgent({ name: 'b', dataDir: join(dir, 'b') });
    running.push(b2);
    assert.equal(b2.agent.nodeId, firstId);
    await waitUntil('b alive again', () => aliveOnA('b.global') === 'alive');
    await waitUntil('b sees a', () =>
      b2.agent.gossip!.members().some((m) => m.name === 'a.global' && m.state === 'alive'),
    );
  });
});
