import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { type FieldSpec, field, withoutSensitive } from './fields.js';

/** Asserts that `spec` refuses `raw` with the established field-validation text naming `name`. */
function assertRefused(spec: FieldSpec<unknown>, raw: unknown, name = 'f') {
  assert.throws(
    () => spec.parse(raw, name),
    (err: unknown) =>
      err instanceof InvalidRequestError &&
      err.code === 'invalid_request' &&
      err.message.startsWith(`Field validation failed: error converting input for field "${name}": `),
    `expected ${JSON.stringify(raw)} to be refused`,
  );
}

describe('field.string', () => {
  const f = field.string({ description: 'd' });
  it('keeps strings and prints numbers and booleans', () => {
    assert.equal(f.parse('abc', 'f'), 'abc');
    assert.equal(f.parse(42, 'f'), '42');
    assert.equal(f.parse(true, 'f'), 'true');
  });
  it('refuses lists and maps', () => {
    assertRefused(f, ['a']);
    assertRefused(f, { a: 1 });
  });
});

describe('field.int', () => {
  const f = field.int({ description: 'd' });
  it('takes integers and integer strings (query and form values arrive as strings)', () => {
    assert.equal(f.parse(7, 'f'), 7);
    assert.equal(f.parse('7', 'f'), 7);
    assert.equal(f.parse(' -3 ', 'f'), -3);
  });
  it('refuses fractions, words, empty strings and booleans', () => {
    for (const raw of [1.5, '1.5', 'seven', '', true, [1], {}]) assertRefused(f, raw);
  });
});

describe('field.bool', () => {
  const f = field.bool({ description: 'd' });
  it('takes JSON booleans and the strings Go strconv.ParseBool accepts', () => {
    for (const raw of [true, 'true', 'TRUE', 'True', 't', 'T', '1', 1]) assert.equal(f.parse(raw, 'f'), true);
    for (const raw of [false, 'false', 'FALSE', 'False', 'f', 'F', '0', 0]) assert.equal(f.parse(raw, 'f'), false);
  });
  it('reads an empty string as false, as the established weak decoding does (hvac sends "" for unset flags)', () => {
    assert.equal(f.parse('', 'f'), false);
  });
  it('refuses anything else', () => {
    for (const raw of ['yes', 'on', 2, [], {}]) assertRefused(f, raw);
  });
});

describe('field.durationSeconds', () => {
  const f = field.durationSeconds({ description: 'd' });
  it('takes seconds as a number or string, or a duration string', () => {
    assert.equal(f.parse(90, 'f'), 90);
    assert.equal(f.parse('90', 'f'), 90);
    assert.equal(f.parse('1h30m', 'f'), 5400);
    assert.equal(f.parse('90s', 'f'), 90);
  });
  it('refuses a malformed duration', () => {
    for (const raw of ['1 hour', 'x', false]) assertRefused(f, raw, 'ttl');
  });
  it('documents itself as a duration string in OpenAPI', () => {
    assert.deepEqual(f.openapi, { type: 'string', format: 'duration' });
  });
});

describe('field.commaStrings', () => {
  const f = field.commaStrings({ description: 'd' });
  it('splits a comma string and trims each item', () => {
    assert.deepEqual(f.parse('a, b ,c', 'f'), ['a', 'b', 'c']);
  });
  it('takes an array as is, printing numbers', () => {
    assert.deepEqual(f.parse(['a,b', 'c', 3], 'f'), ['a,b', 'c', '3']);
  });
  it('reads an empty string as an empty list', () => {
    assert.deepEqual(f.parse('', 'f'), []);
  });
  it('refuses maps and nested lists', () => {
    assertRefused(f, { a: 'b' });
    assertRefused(f, [['a']]);
  });
});

describe('field.strings', () => {
  const f = field.strings({ description: 'd' });
  it('wraps a single string (commas and all) and keeps an array', () => {
    assert.deepEqual(f.parse('a,b', 'f'), ['a,b']);
    assert.deepEqual(f.parse(['a', 'b'], 'f'), ['a', 'b']);
  });
  it('refuses a map', () => assertRefused(f, { a: 'b' }));
});

describe('field.ints', () => {
  const f = field.ints({ description: 'd' });
  it('takes an array, a comma string or a single number', () => {
    assert.deepEqual(f.parse([1, '2', 3], 'f'), [1, 2, 3]);
    assert.deepEqual(f.parse('1, 2,3', 'f'), [1, 2, 3]);
    assert.deepEqual(f.parse(4, 'f'), [4]);
  });
  it('reads an empty string as an empty list, as a form field left blank arrives', () => {
    assert.deepEqual(f.parse('', 'f'), []);
  });
  it('refuses items that are not integers', () => {
    for (const raw of ['1,x', [1.5], 'a']) assertRefused(f, raw, 'versions');
  });
});

describe('field.object', () => {
  const f = field.object({ description: 'd' });
  it('takes a map, or a JSON object in a string (form and query values)', () => {
    assert.deepEqual(f.parse({ a: 1, b: { c: null } }, 'f'), { a: 1, b: { c: null } });
    assert.deepEqual(f.parse('{"a":1}', 'f'), { a: 1 });
  });
  it('refuses lists, scalars and strings that are not a JSON object', () => {
    for (const raw of [[1], 'abc', '{not json', 5, true]) assertRefused(f, raw, 'data');
  });
});

describe('field.stringMap', () => {
  const f = field.stringMap({ description: 'd' });
  it('takes a map, printing scalar values as strings', () => {
    assert.deepEqual(f.parse({ a: 'x', n: 1, b: true }, 'f'), { a: 'x', n: '1', b: 'true' });
  });
  it('takes a list of key=value strings, splitting at the first =', () => {
    assert.deepEqual(f.parse(['a=1', 'b=x=y', 'c='], 'f'), { a: '1', b: 'x=y', c: '' });
  });
  it('takes a single key=value string as a one-item list', () => {
    assert.deepEqual(f.parse('team=ops', 'f'), { team: 'ops' });
  });
  it('refuses pairs without a key or without =, and nested values', () => {
    for (const raw of [['=v'], ['novalue'], 'novalue', { a: { b: 'c' } }, { a: ['x'] }, 5]) {
      assertRefused(f, raw, 'custom_metadata');
    }
  });
});

describe('field.nullableStringMap', () => {
  const f = field.nullableStringMap({ description: 'd' });
  it('keeps null values, which a merge patch uses to remove keys', () => {
    assert.deepEqual(f.parse({ a: null, b: 'x', n: 2 }, 'f'), { a: null, b: 'x', n: '2' });
  });
  it('takes key=value lists like field.stringMap', () => {
    assert.deepEqual(f.parse(['a=1'], 'f'), { a: '1' });
    assert.deepEqual(f.parse('a=1', 'f'), { a: '1' });
  });
  it('refuses nested values', () => {
    assertRefused(f, { a: { b: 'c' } }, 'custom_metadata');
    assertRefused(f, 5);
  });
});

describe('field options', () => {
  it('carry description, default and required for the path framework and OpenAPI', () => {
    const f = field.int({ description: 'How many.', default: 3 });
    assert.equal(f.description, 'How many.');
    assert.equal(f.default, 3);
    assert.equal(f.required, false);
    assert.equal(f.inPath, false);
    assert.deepEqual(f.openapi, { type: 'integer' });
  });
  it('mark a secret sensitive, which a read leaves out', () => {
    const fields = {
      user: field.string({ description: 'u' }),
      pass: field.string({ description: 'p', sensitive: true }),
    };
    assert.equal(fields.pass.isSensitive, true);
    assert.equal(fields.user.isSensitive, false);
    assert.deepEqual(withoutSensitive(fields, { user: 'u', pass: 'secret', other: 1 }), { user: 'u', other: 1 });
  });
  it('mark path captures as required and in the path', () => {
    const f = field.path({ description: 'Where.' });
    assert.equal(f.required, true);
    assert.equal(f.inPath, true);
    assert.equal(f.parse('a/b', 'path'), 'a/b');
  });
});

describe('field.objects', () => {
  const spec = field.objects({ description: 'd' });
  it('takes a list of maps, or a JSON string of one (transit batch_input)', () => {
    assert.deepEqual(spec.parse([{ a: 1 }, { b: '2' }], 'f'), [{ a: 1 }, { b: '2' }]);
    assert.deepEqual(spec.parse('[{"a":1}]', 'f'), [{ a: 1 }]);
  });
  it('refuses a map, a list of strings and a string that is not JSON', () => {
    for (const raw of [{ a: 1 }, ['x'], '[nope', 'x']) assertRefused(spec, raw);
  });
});
