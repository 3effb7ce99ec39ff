import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock, silentLogger } from '@ward/base';
import { PermissionDeniedError } from '../errors.js';
import { MemoryStreams } from '../memory-streams.js';
import { RpcDialer } from './rpc-client.js';
import { type RpcMethod, RpcServer } from './rpc-server.js';
import { loadRpcTls, type RpcTls } from './rpc-tls.js';
import { type ClusterPki, makeClusterPki, tlsLayer } from './rpc-tls.testing.js';

const unary = (handle: () => Promise<unknown>): RpcMethod => ({ kind: 'unary', handle });

// The agent's RPC client and server over in-memory streams: the same framing, errors and
// TLS as over TCP, with timeouts on the fake clock.
describe('RPC over MemoryStreams', () => {
  const methods = new Map<string, RpcMethod>([
    ['Echo.Ping', unary(async () => ({ pong: true }))],
    [
      'Echo.Deny',
      unary(async () => {
        throw new PermissionDeniedError('Permission denied');
      }),
    ],
    ['Echo.Hang', unary(() => new Promise(() => {}))],
  ]);

  it('answers a call, brings a typed error back typed, and refuses an address nobody listens on', async () => {
    const streams = new MemoryStreams();
    const server = await RpcServer.listen(streams, '10.0.0.1', 4647, silentLogger);
    server.serve(methods);
    const rpc = new RpcDialer(streams, undefined, new FakeClock(0));
    try {
      assert.deepEqual(await rpc.call('10.0.0.1:4647', 'Echo.Ping', {}), { pong: true });
      await assert.rejects(rpc.call('10.0.0.1:4647', 'Echo.Deny', {}), PermissionDeniedError);
      await assert.rejects(rpc.call('10.0.0.9:4647', 'Echo.Ping', {}), /ECONNREFUSED 10\.0\.0\.9:4647/);
    } finally {
      await server.close();
    }
    await assert.rejects(rpc.call('10.0.0.1:4647', 'Echo.Ping', {}), /ECONNREFUSED/, 'closed: refused');
  });

  it('times a call out on the fake clock, not before', async () => {
    const streams = new MemoryStreams();
    const clock = new FakeClock(0);
    const server = await RpcServer.listen(streams, '10.0.0.1', 4647, silentLogger);
    server.serve(methods);
    try {
      let outcome = 'pending';
      const call = new RpcDialer(streams, undefined, clock).call('10.0.0.1:4647', 'Echo.Hang', {}, { timeoutMs: 500 });
      call.catch((err: Error) => {
        outcome = err.message;
      });
      clock.advance(499);
      await new Promise<void>((r) => setImmediate(r));
      assert.equal(outcome, 'pending');
      clock.advance(1);
      await assert.rejects(call, /i\/o timeout/);
    } finally {
      await server.close();
    }
  });

  describe('with mutual TLS', () => {
    let pki: ClusterPki;
    let good: RpcTls;
    let rogue: RpcTls;
    before(async () => {
      pki = await makeClusterPki();
      good = loadRpcTls(tlsLayer(pki.server, pki.ca), 'global')!;
      rogue = loadRpcTls(tlsLayer(pki.rogueServer, pki.rogueCa), 'global')!;
    });
    after(() => pki?.remove());

    it('a peer with a certificate of the CA is served; one of another CA is refused', async () => {
      const streams = new MemoryStreams();
      const server = await RpcServer.listen(streams, '10.0.0.1', 4647, silentLogger, good);
      server.serve(methods);
      try {
        const clock = new FakeClock(0);
        assert.deepEqual(await new RpcDialer(streams, good, clock).call('10.0.0.1:4647', 'Echo.Ping', {}), {
          pong: true,
        });
        await assert.rejects(new RpcDialer(streams, rogue, clock).call('10.0.0.1:4647', 'Echo.Ping', {}));
      } finally {
        await server.close();
      }
    });
  });
});
