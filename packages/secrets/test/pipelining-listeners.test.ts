import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RawClient } from '../src/http/raw-http.testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 28 point 9: many pipelined requests on one connection (plain, and through the LIST
// method shim) queue without adding a listener per request to the connection, so bin/ward
// prints no MaxListenersExceededWarning.
const ROOT = 'pipe-root';
const HEAD = `Host: ward\r\nX-Vault-Token: ${ROOT}\r\n`;

describe('pipelined requests and connection listeners (issue 28 point 9)', () => {
  let dev: DevWard;
  before(async () => {
    dev = await startDevWard(ROOT);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  for (const [what, first] of [
    ['plain', `GET /v1/sys/health HTTP/1.1\r\n${HEAD}\r\n`],
    ['after a LIST', `LIST /v1/secret/metadata/ HTTP/1.1\r\n${HEAD}\r\n`],
  ] as const) {
    it(`answers 40 pipelined requests (${what}) with no listener warning`, async () => {
      const client = await RawClient.connect(Number(new URL(dev.url).port));
      try {
        const requests = [first, ...Array.from({ length: 39 }, () => `GET /v1/sys/health HTTP/1.1\r\n${HEAD}\r\n`)];
        await client.write(requests.join(''));
        for (let i = 0; i < requests.length; i++) await client.readResponse();
      } finally {
        client.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.doesNotMatch(dev.ward.output(), /MaxListenersExceeded/);
    });
  }
});
