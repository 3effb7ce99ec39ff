import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listRequestBytes } from './list-switch.js';

/** The error llhttp gives for `packet`, failing at the byte `failAt` (as Node reports it). */
const refused = (packet: string, failAt: number) => ({
  code: 'HPE_INVALID_METHOD',
  rawPacket: Buffer.from(packet, 'latin1'),
  bytesParsed: failAt,
});
const text = (b: Buffer | undefined) => b?.toString('latin1');

describe('listRequestBytes', () => {
  it('finds the LIST request after the requests before it in the same packet', () => {
    const packet = 'GET /a HTTP/1.1\r\n\r\nLIST /b HTTP/1.1\r\n\r\n';
    assert.equal(text(listRequestBytes(refused(packet, packet.indexOf('ST /b')))), 'LIST /b HTTP/1.1\r\n\r\n');
  });

  it('finds it right after a body that ends in a capital letter', () => {
    const packet = 'GET /a HTTP/1.1\r\nContent-Length: 1\r\n\r\nLLIST /b HTTP/1.1\r\n\r\n';
    assert.equal(text(listRequestBytes(refused(packet, packet.indexOf('ST /b')))), 'LIST /b HTTP/1.1\r\n\r\n');
  });

  it('puts back the start of the method that came in an earlier packet', () => {
    assert.equal(text(listRequestBytes(refused('IST /b HTTP/1.1\r\n\r\n', 1))), 'LIST /b HTTP/1.1\r\n\r\n');
    assert.equal(text(listRequestBytes(refused('ST /b HTTP/1.1\r\n\r\n', 0))), 'LIST /b HTTP/1.1\r\n\r\n');
  });

  it('leaves every other refusal alone', () => {
    assert.equal(listRequestBytes(refused('FOO /b HTTP/1.1\r\n\r\n', 1)), undefined);
    assert.equal(listRequestBytes(refused('LOST /b HTTP/1.1\r\n\r\n', 2)), undefined);
    assert.equal(
      listRequestBytes({ ...refused('LIST /b HTTP/1.1\r\n\r\n', 2), code: 'HPE_INVALID_VERSION' }),
      undefined,
    );
    assert.equal(listRequestBytes({ code: 'HPE_INVALID_METHOD' }), undefined);
  });
});
