import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:tls';
import { runWard, tempHome } from '../src/cli/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

/** Kernel TCP states (include/net/tcp_states.h) as /proc/net/tcp writes them. */
const TCP_STATE: Record<string, string> = {
  '01': 'ESTABLISHED',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
};

/**
 * The states of the server's accepted sockets (local port `port`), from /proc/net/tcp. TIME_WAIT
 * is left out: it is the kernel's, held by no process.
 */
async function serverSockets(port: number): Promise<string[]> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  const states: string[] = [];
  for (const line of table.split('\n').slice(1)) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (!local || !state || Number.parseInt(local.split(':')[1] as string, 16) !== port) continue;
    const name = TCP_STATE[state] ?? state;
    if (name !== 'LISTEN' && name !== 'TIME_WAIT') states.push(name);
  }
  return states;
}

/** A client that does not trust the server's certificate: the handshake fails on its side. */
function failedHandshake(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('secureConnect', () => reject(new Error('the handshake should have failed')));
    socket.once('error', () => resolve());
  });
}

// Issue 21, point 9: sockets whose TLS handshake failed stayed in CLOSE-WAIT, and SIGTERM then
// waited the whole grace period for them.
describe('ward server over TLS: clients that abort the handshake', () => {
  let server: WardProcess;
  let port = 0;
  let url = '';
  before(async () => {
    server = startWard(['server', '-dev-tls', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0']);
    [, url = ''] = await server.waitFor(/export VAULT_ADDR='(https:\/\/[^']+)'/);
    port = Number(new URL(url).port);
    await server.waitFor(/Root Token: root/);
  });
  after(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  });

  it('leave no socket behind, and SIGTERM does not need the grace period', async () => {
    const status = await runWard(['status'], { VAULT_ADDR: url, HOME: await tempHome() });
    assert.equal(status.code, 2, 'ward status without the CA fails the handshake');
    for (let i = 0; i < 20; i++) await failedHandshake(port);

    // The server closes them as it reads each client's close; wait for that, bounded.
    let left = await serverSockets(port);
    for (let tries = 0; left.length > 0 && tries < 50; tries++) {
      await sleep(100);
      left = await serverSockets(port);
    }
    assert.deepEqual(left, [], 'every socket of a failed handshake is closed');

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    assert.doesNotMatch(server.output(), /shutdown grace period/);
  });
});
