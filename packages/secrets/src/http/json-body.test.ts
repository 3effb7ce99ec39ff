import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonBody, type JsonLimits, parseJsonText } from './json-body.js';

const LIMITS: JsonLimits = { maxDepth: 3, maxStringValueLength: 8, maxObjectEntryCount: 3, maxArrayElementCount: 3 };

/** What `JsonBody` makes of `text` sent in `pieces`: the value, or the refusal's message. */
async function viaJsonBody(text: string | Buffer, limits = LIMITS, pieces = 1): Promise<unknown> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const body = new JsonBody(limits);
  const size = Math.ceil(bytes.length / pieces);
  try {
    for (let i = 0; i < bytes.length; i += size) await body.write(bytes.subarray(i, i + size));
  } catch (err) {
    return { refused: (err as Error).message };
  }
  return settle(() => body.end());
}

/** The same through the streaming parser alone, which defines every answer. */
function viaStreaming(text: string | Buffer, limits = LIMITS): unknown {
  return settle(() => parseJsonText(Buffer.isBuffer(text) ? text.toString() : text, limits));
}

function settle(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

describe('JsonBody', () => {
  const cases: Array<[string, string | Buffer]> = [
    ['a small object', '{"a":{"b":[1,2,"x"]},"c":null}'],
    ['white space only', '  \n'],
    ['a __proto__ key, kept as an ordinary key', '{"__proto__":{"x":1}}'],
    ['a __proto__ key over the string limit', '{"__proto__":1}'],
    ['invalid JSON', '{"a":'],
    ['trailing text', '{"a":1} x'],
    ['too deep', '{"a":{"b":{"c":{}}}}'],
    ['a string too long', '{"a":"123456789"}'],
    ['a key too long', '{"123456789":1}'],
    ['too many array elements', '[1,2,3,4]'],
    ['too many object entries', '{"a":1,"b":2,"c":3,"d":4}'],
    ['too many entries, all with one key', '{"a":1,"a":2,"a":3,"a":4}'],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ];
  for (const [name, text] of cases) {
    it(`answers as the streaming parser does: ${name}`, async () => {
      assert.deepEqual(await viaJsonBody(text), viaStreaming(text));
      assert.deepEqual(await viaJsonBody(text, LIMITS, 3), viaStreaming(text));
    });
  }

  it('keeps a __proto__ key as data, never as the prototype', async () => {
    const limits = { ...LIMITS, maxStringValueLength: 16 };
    const { value } = (await viaJsonBody('{"__proto__":{"polluted":true}}', limits)) as {
      value: Record<string, unknown>;
    };
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__']);
  });

  it('streams a body too large to keep, with the same limits', async () => {
    const limits = { ...LIMITS, maxArrayElementCount: 100_000, maxStringValueLength: 100_000 };
    const large = JSON.stringify({ a: 'x'.repeat(40_000) });
    assert.deepEqual(await viaJsonBody(large, limits, 5), { value: { a: 'x'.repeat(40_000) } });
    const tooMany = JSON.stringify(Array.from({ length: 100_001 }, () => 0));
    assert.deepEqual(await viaJsonBody(tooMany, limits, 7), viaStreaming(tooMany, limits));
  });
});
