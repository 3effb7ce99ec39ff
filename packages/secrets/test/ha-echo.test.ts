import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { cryptoRandom, FakeClock, silentLogger } from '@ward/base';
import { FORGET_AFTER_MS } from '../src/core/ha/ha-nodes.js';
import { rfc3339Nano } from '../src/logical/time.js';
import { buildServer, type WardServer } from '../src/server/build-server.js';
import type { ServerConfig } from '../src/server/config.js';
import { initializeDev } from '../src/server/dev-mode.js';
import { ECHO_INTERVAL_MS } from '../src/server/ha-wiring.js';
import { request } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';
import { type EtcdProcess, startEtcd } from '../src/storage/testing.js';
import { healthBecomes } from './ha-nodes.testing.js';

/**
 * Issue 19 follow-up: a standby echoes to the active server on the injected clock (no real
 * interval), so the echo's timing is driven here by moving each server's FakeClock, in-process,
 * over a real etcd and the real mutual-TLS cluster channel.
 */
describe('HA echo on the injected clock', () => {
  let etcd: EtcdProcess;
  const servers: WardServer[] = [];

  const config = (): ServerConfig => ({
    storage: parseStorageBlock('etcd', { address: etcd.url, path: 'ward-echo/', ha_enabled: true, lock_ttl: '2s' }),
    listeners: [{ address: '127.0.0.1:0', tlsDisable: true, maxRequestSize: 0 }],
    clusterAddr: 'https://127.0.0.1:0',
    // A plain standby: it forwards everything, and echoes.
    disablePerformanceStandby: true,
    logLevel: 'info',
    logJson: false,
    kmsLibraries: new Map(),
  });

  const start = async (clock: FakeClock, unseal: (server: WardServer) => Promise<unknown>) => {
    const server = await buildServer({ config: config(), clock, random: cryptoRandom, logger: silentLogger });
    servers.push(server);
    // Unsealed once listening, as through `sys/unseal`: the lock then advertises the bound cluster address.
    const [address] = await server.start();
    await unseal(server);
    return { server, url: address?.url ?? '' };
  };

  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    for (const server of servers.reverse()) await server.stop();
    await etcd?.stop();
  });

  it('a standby echoes each time its clock passes the interval; the active server records it at its own time and forgets it 30 s later', async () => {
    // Both start at the real time: the cluster certificate, made on the active server's clock, is checked against it.
    const clockA = new FakeClock(Date.now());
    const clockB = new FakeClock(Date.now() + 60_000);
    let creds = { unsealKey: '', rootToken: '' };
    const a = await start(clockA, async (server) => {
      creds = await initializeDev(server);
    });
    await healthBecomes(a.url, 200);
    const b = await start(clockB, (server) => server.core.submitUnsealKey(creds.unsealKey));
    await healthBecomes(b.url, 429);

    const standbys = async () => {
      const status = await request(a.url, 'GET', 'sys/ha-status', { token: creds.rootToken });
      assert.equal(status.status, 200);
      return (status.body.nodes as Array<{ api_address: string; active_node: boolean; last_echo: string }>).filter(
        (n) => !n.active_node,
      );
    };
    /** Waits (real time, bounded) for the active server to report `b` with this last echo. */
    const echoedAt = async (lastEcho: string) => {
      for (let i = 0; i < 100; i++) {
        const nodes = await standbys();
        if (nodes.some((n) => n.api_address === b.url && n.last_echo === lastEcho)) return;
        await sleep(50);
      }
      assert.fail(`the active server never recorded an echo at ${lastEcho}: ${JSON.stringify(await standbys())}`);
    };

    // b's clock has not moved: it has not echoed, however long the set-up took.
    assert.deepEqual(await standbys(), []);

    clockB.advance(ECHO_INTERVAL_MS);
    await echoedAt(rfc3339Nano(clockA.now()));

    // The next echo waits on b's clock, one interval after the last (its timer fires, and is armed
    // again only once that echo is sent); the active server hears it at its own, later time.
    clockA.advance(5_000);
    const waiting = clockB.pendingTimers;
    clockB.advance(ECHO_INTERVAL_MS - 1);
    assert.equal(clockB.pendingTimers, waiting, 'no echo before the interval has passed');
    clockB.advance(1);
    assert.equal(clockB.pendingTimers, waiting - 1, 'the echo fires when the interval has passed');
    await echoedAt(rfc3339Nano(clockA.now()));

    // Silence (b's clock stands still) for longer than the active server keeps a standby: forgotten.
    clockA.advance(FORGET_AFTER_MS + 1);
    assert.deepEqual(await standbys(), []);
    clockB.advance(ECHO_INTERVAL_MS);
    await echoedAt(rfc3339Nano(clockA.now()));
  });
});
