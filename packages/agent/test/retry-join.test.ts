import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { AgentProcess, FAST_GOSSIP, statuses, waitUntil } from './harness.js';

/** A port that was free a moment ago (the first server must start after the second). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

// Issue 23 point 3: a server whose -retry-join peer is not listening yet keeps trying.
describe('retry_join', () => {
  const running: AgentProcess[] = [];
  after(async () => {
    await Promise.all(running.map((a) => a.kill()));
  });

  it('joins a peer that starts later, and gives up after -retry-max attempts', async () => {
    const serf = await freePort();
    const early = await AgentProcess.start([
      '-server',
      '-node=early',
      '-bootstrap-expect=2',
      `-retry-join=127.0.0.1:${serf}`,
      '-retry-interval=300ms',
      ...FAST_GOSSIP,
    ]);
    running.push(early);
    await waitUntil('a failed attempt', () => /join failed, retrying/.test(early.logs));
    const late = await AgentProcess.start(['-server', '-node=late', '-bootstrap-expect=2', ...FAST_GOSSIP], {
      ports: { http: 0, rpc: 0, serf },
    });
    running.push(late);
    await waitUntil('both alive in one pool', async () => (await statuses(late))['early.global'] === 'alive');
    await waitUntil('a leader', async () => (await early.fetch('/v1/agent/health')).status === 200);
    assert.match(early.logs, /retry join completed/);

    const lonely = await AgentProcess.start([
      '-server',
      '-node=lonely',
      `-retry-join=127.0.0.1:${await freePort()}`,
      '-retry-interval=100ms',
      '-retry-max=2',
      ...FAST_GOSSIP,
    ]);
    running.push(lonely);
    await waitUntil('retries exhausted', () => /max join retry exhausted: .*attempts=2/.test(lonely.logs));
  });
});
