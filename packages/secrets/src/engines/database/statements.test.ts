import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillPlaceholders, renderStatements, splitStatements } from './statements.js';

describe('database statements', () => {
  it('split items on semicolons, as a JSON list, or from base64, dropping empty ones', () => {
    assert.deepEqual(splitStatements(['CREATE ROLE a; GRANT x TO a;', ' ']), ['CREATE ROLE a', 'GRANT x TO a']);
    assert.deepEqual(splitStatements(['["SELECT 1; SELECT 2", "SELECT 3"]']), ['SELECT 1; SELECT 2', 'SELECT 3']);
    const encoded = Buffer.from('CREATE USER b; DROP USER b').toString('base64');
    assert.deepEqual(splitStatements([encoded]), ['CREATE USER b', 'DROP USER b']);
    // Not base64 and not JSON: taken as written.
    assert.deepEqual(splitStatements(['[not json']), ['[not json']);
  });

  it('fill {{name}}, {{username}}, {{password}} and {{expiration}}, leaving unknown ones', () => {
    const values = new Map([
      ['name', 'v-u'],
      ['password', 'pw'],
    ]);
    assert.equal(
      fillPlaceholders(`CREATE ROLE "{{name}}" PASSWORD '{{ password }}' {{other}}`, values),
      `CREATE ROLE "v-u" PASSWORD 'pw' {{other}}`,
    );
    assert.deepEqual(renderStatements(['A {{name}}; B {{name}}'], values), ['A v-u', 'B v-u']);
  });
});
