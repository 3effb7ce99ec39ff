import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QrTooSmallError, qrPng } from './qr-image.js';
import { decodeQrPng } from './testing.js';

const URL =
  'otpauth://totp/Vault:test@test.com?algorithm=SHA1&digits=6&issuer=Vault&period=30&secret=HTXT7KJFVNAJUPYWQRWMNVQE5AF5YZI2';

describe('qrPng', () => {
  it('draws a PNG of exactly the requested size that decodes back to the text', () => {
    for (const size of [200, 123, 512]) {
      const qr = decodeQrPng(qrPng(URL, size));
      assert.equal(qr.width, size);
      assert.equal(qr.height, size);
      assert.equal(qr.text, URL);
    }
  });

  it('scales by a whole factor and centres the symbol on white, without a quiet zone of its own', () => {
    // 120 bytes need a version 7 symbol (45 modules) at level M (byte capacity 122):
    // 200 px → 4 px per module, 180 px of symbol, 10 px of white each side.
    const { grey } = decodeQrPng(qrPng(URL, 200));
    assert.equal(grey(9, 9), 255);
    assert.equal(grey(10, 10), 0, 'the finder pattern starts at the offset');
    assert.equal(grey(10 + 45 * 4 - 1, 10), 0, 'the top-right finder ends at offset + 45 × 4');
    assert.equal(grey(10 + 45 * 4, 10), 255);
  });

  it('refuses a size smaller than the symbol, naming its module count', () => {
    assert.throws(
      () => qrPng(URL, 44),
      (err: unknown) => {
        assert.ok(err instanceof QrTooSmallError);
        assert.equal(err.message, 'can not scale barcode to an image smaller than 45x45');
        return true;
      },
    );
    assert.equal(decodeQrPng(qrPng(URL, 45)).width, 45, 'one pixel per module fits');
  });
});
