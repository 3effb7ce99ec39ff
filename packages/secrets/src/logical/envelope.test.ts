import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelopeOf, envelopeText, serializedOnce } from './envelope.js';
import type { LogicalResponse } from './response.js';

describe('envelopeText', () => {
  const cases: Array<[string, LogicalResponse]> = [
    ['data only (the pre-serialized form)', { data: { data: { a: '1', 'b"\u2028': [1, null] }, metadata: { v: 2 } } }],
    ['no data', {}],
    ['null data', { data: null }],
    ['a status', { status: 404, data: { data: null } }],
    ['warnings', { data: { a: 1 }, warnings: ['careful'] }],
    ['empty warnings', { data: { a: 1 }, warnings: [] }],
    ['a lease', { data: { u: 'x' }, lease: { leaseId: 'db/creds/r/1', renewable: true, leaseDurationSeconds: 60 } }],
    ['data at the top level', { data: { sealed: false }, dataAtTopLevel: true }],
  ];
  for (const [name, response] of cases) {
    it(`is the serialized envelope: ${name}`, () => {
      const id = '3f2c1a9e-0b7d-4c55-9e1a-2b3c4d5e6f70';
      assert.equal(envelopeText(id, response), JSON.stringify(envelopeOf(id, response)));
    });
  }

  it('serializes a value marked serializedOnce like any other, every time', () => {
    const data = serializedOnce(
      Object.freeze({ data: Object.freeze({ a: '1' }), metadata: Object.freeze({ version: 3 }) }),
    );
    for (const id of ['a', 'b']) assert.equal(envelopeText(id, { data }), JSON.stringify(envelopeOf(id, { data })));
  });
});
