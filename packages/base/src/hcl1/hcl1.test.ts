import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HclSyntaxError, parseHcl } from './index.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('parseHcl (HCL1)', () => {
  it('reads a block whose brace is on the next line, and repeated blocks in order', () => {
    const { body } = parseHcl(
      'path "auth/*"\n{ capabilities = ["read"] }\npath "auth/*" { capabilities = ["list"] }\n',
    );
    assert.deepEqual(plain(body), { path: { 'auth/*': [{ capabilities: ['read'] }, { capabilities: ['list'] }] } });
  });

  it('skips #, // and /* */ comments and reads items separated by commas or on one line', () => {
    const { body } = parseHcl('# a\n// b\n/* c\n d */ a = 1, b = "x" c = true\n');
    assert.deepEqual(plain(body), { a: 1, b: 'x', c: true });
  });

  it('reads heredocs, and <<- removes the closing anchor indentation', () => {
    const { body } = parseHcl('a = <<EOT\nline 1\n  line 2\nEOT\nb = <<-EOT\n    x\n      y\n    EOT\n');
    assert.deepEqual(plain(body), { a: 'line 1\n  line 2\n', b: 'x\n  y\n' });
  });

  it('reads numbers as Go does (octal, hex, negative, floats) and escapes in strings', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, kept as text
    const { body } = parseHcl('a = 0x1F\nb = 017\nc = -3\nd = 1.5e2\ne = "t\\tq\\"\\u00e9"\nf = "${x("y")}"\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, kept as text
    assert.deepEqual(plain(body), { a: 31, b: 15, c: -3, d: 150, e: 't\tq"é', f: '${x("y")}' });
  });

  it('joins a list assigned twice and nests labels', () => {
    const { body } = parseHcl('a = ["x"]\na = ["y"]\nseal "transit" { address = "h" }\nl "one" "two" {}\n');
    assert.deepEqual(plain(body), { a: ['x', 'y'], seal: { transit: [{ address: 'h' }] }, l: { one: { two: [{}] } } });
  });

  it('gives the line of every key, in each repeated block', () => {
    const doc = parseHcl('listener "tcp" {\n  address = "a"\n}\n\nlistener "tcp" {\n  x = 1\n  address = "b"\n}\n');
    const [first, second] = (doc.body.listener as { tcp: object[] }).tcp;
    assert.equal(doc.lineOf(first as object, 'address'), 2);
    assert.equal(doc.lineOf(second as object, 'address'), 7);
    assert.equal(doc.lineOf(doc.body, 'listener'), 1);
    assert.equal(doc.lineOfBody(second as object), 5);
  });

  it('flattens JSON as the established parser does: nested objects and lists of objects become blocks', () => {
    const json =
      '{"path": {"a/*": {"capabilities": ["read"]}}, "listener": [{"tcp": {"address": "x"}}, {"tcp": {"address": "y"}}], "ui": true}';
    assert.deepEqual(plain(parseHcl(json).body), {
      path: { 'a/*': [{ capabilities: ['read'] }] },
      listener: { tcp: [{ address: 'x' }, { address: 'y' }] },
      ui: true,
    });
  });

  for (const [src, where] of [
    ['a = ', '1:5'],
    ['a b = 1', '1:5'],
    ['a = [1 2]', '1:8'],
    ['a { b = 1', '1:10'],
    ['a = "x\ny"', '1:5'],
    ['a = foo', '1:5'],
    ['a = <<EOT\nx\n', '1:5'],
    ['{"a": 1,}', '1:9'],
  ] as const) {
    it(`refuses ${JSON.stringify(src)} at ${where}`, () => {
      assert.throws(
        () => parseHcl(src),
        (err: unknown) => err instanceof HclSyntaxError && err.message.startsWith(`At ${where}:`),
      );
    });
  }
});
