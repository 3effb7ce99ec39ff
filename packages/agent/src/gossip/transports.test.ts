import { createServer } from 'node:net';
import { describe } from 'node:test';
import { systemClock } from '@ward/base';
import { MemoryNetwork } from './memory-network.js';
import { NetTransport } from './net-transport.js';
import { transportCases } from './transport.case.js';

/** A loopback port that was free a moment ago (bound, then released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('MemoryTransport', () =>
  transportCases(async () => {
    const net = new MemoryNetwork(systemClock);
    const a = net.createTransport();
    const b = net.createTransport();
    return { a, b, nowhere: { addr: '10.0.0.1', port: 1 }, close: async () => {} };
  }));

describe('NetTransport (UDP + TCP on loopback)', () =>
  transportCases(async () => {
    const a = await NetTransport.listen('127.0.0.1', 0);
    const b = await NetTransport.listen('127.0.0.1', 0);
    return {
      a,
      b,
      nowhere: { addr: '127.0.0.1', port: await freePort() },
      close: async () => {
        await a.close();
        await b.close();
      },
    };
  }));
