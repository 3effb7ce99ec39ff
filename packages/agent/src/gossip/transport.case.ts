import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Address, Transport } from './transport.js';

/** Two connected transports and a way to dispose of them. */
export interface TransportPair {
  a: Transport;
  b: Transport;
  /** An address nobody listens on. */
  nowhere: Address;
  close(): Promise<void>;
}

/** The behaviour the memberlist relies on; every Transport's test file runs these. */
export function transportCases(make: () => Promise<TransportPair>): void {
  it('delivers a packet with the address the sender listens on', async () => {
    const p = await make();
    try {
      const got = new Promise<[string, Address]>((resolve) =>
        p.b.onPacket((d, from) => resolve([Buffer.from(d).toString(), from])),
      );
      p.a.sendPacket(p.b.local, Buffer.from('hello'));
      const [text, from] = await got;
      assert.equal(text, 'hello');
      assert.deepEqual(from, p.a.local);
    } finally {
      await p.close();
    }
  });

  it('answers a request with the handler’s reply, and rejects when the handler fails', async () => {
    const p = await make();
    try {
      p.b.onRequest(async (d) => {
        if (Buffer.from(d).toString() === 'fail') throw new Error('no');
        return Buffer.from(`re:${Buffer.from(d).toString()}`);
      });
      assert.equal(Buffer.from(await p.a.request(p.b.local, Buffer.from('x'), 2000)).toString(), 're:x');
      await assert.rejects(p.a.request(p.b.local, Buffer.from('fail'), 2000));
    } finally {
      await p.close();
    }
  });

  it('rejects a request to an address nobody listens on, and one that is never answered', async () => {
    const p = await make();
    // The clock's timers do not hold the process open; this does, while the timeout runs.
    const keepAlive = setInterval(() => {}, 1000);
    try {
      await assert.rejects(p.a.request(p.nowhere, Buffer.from('x'), 2000));
      p.b.onRequest(() => new Promise(() => {}));
      await assert.rejects(p.a.request(p.b.local, Buffer.from('x'), 100), /timeout/);
    } finally {
      clearInterval(keepAlive);
      await p.close();
    }
  });

  it('carries a large request (full state of many members) intact', async () => {
    const p = await make();
    try {
      const big = Buffer.alloc(300_000, 7);
      p.b.onRequest(async (d) => Buffer.from(String(d.length)));
      assert.equal(Buffer.from(await p.a.request(p.b.local, big, 2000)).toString(), '300000');
    } finally {
      await p.close();
    }
  });
}
