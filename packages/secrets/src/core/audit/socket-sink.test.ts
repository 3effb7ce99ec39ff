import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { describe, it } from 'node:test';
import { createSocketSink, socketSinkSettings } from './socket-sink.js';

describe('socket sink', () => {
  it('sends each line as a UDP datagram', async () => {
    const receiver = createSocket('udp4');
    receiver.bind(0, '127.0.0.1');
    await once(receiver, 'listening');
    const { port } = receiver.address();
    const sink = createSocketSink(socketSinkSettings({ address: `127.0.0.1:${port}`, socket_type: 'udp' }));
    const received = once(receiver, 'message');
    await sink.write('{"type":"request"}\n');
    const [message] = (await received) as [Buffer];
    assert.equal(message.toString(), '{"type":"request"}\n');
    await sink.close();
    receiver.close();
  });

  it('fails a write when nothing listens at the address', async () => {
    // A port a server just let go of: connecting to it is refused.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const sink = createSocketSink(socketSinkSettings({ address: `127.0.0.1:${port}`, write_timeout: '500ms' }));
    await assert.rejects(sink.write('x\n'));
    await sink.close();
  });

  it('reads write_timeout in milliseconds or as a duration, 2s by default', () => {
    assert.equal(socketSinkSettings({ address: 'h:1' }).writeTimeoutMs, 2000);
    assert.equal(socketSinkSettings({ address: 'h:1', write_timeout: '250ms' }).writeTimeoutMs, 250);
    assert.equal(socketSinkSettings({ address: 'h:1', write_timeout: '1m' }).writeTimeoutMs, 60_000);
  });
});
