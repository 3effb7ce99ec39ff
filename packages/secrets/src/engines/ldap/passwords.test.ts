import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passwordChanges } from './passwords.js';

const asPlain = (schema: 'ldapdir' | 'ad' | 'racf', password: string, credential_type?: 'password' | 'phrase') =>
  passwordChanges({ schema, credential_type }, password).map((c) => ({
    operation: c.operation,
    type: c.modification.type,
    values: c.modification.values.map((v) => (Buffer.isBuffer(v) ? [...v] : v)),
  }));

describe('password attributes per schema', () => {
  it('ldapdir: userPassword in clear', () => {
    assert.deepEqual(asPlain('ldapdir', 'pw'), [{ operation: 'replace', type: 'userPassword', values: ['pw'] }]);
  });

  it('ad: unicodePwd as the quoted password in UTF-16LE bytes, no BOM', () => {
    assert.deepEqual(asPlain('ad', 'pé'), [
      { operation: 'replace', type: 'unicodePwd', values: [[0x22, 0, 0x70, 0, 0xe9, 0, 0x22, 0]] },
    ]);
  });

  it('racf: racfPassword with racfAttributes noexpired in the same modify', () => {
    assert.deepEqual(asPlain('racf', 'PW1'), [
      { operation: 'replace', type: 'racfPassword', values: ['PW1'] },
      { operation: 'replace', type: 'racfAttributes', values: ['noexpired'] },
    ]);
  });

  it('racf with credential_type phrase: racfPassPhrase instead of racfPassword', () => {
    assert.deepEqual(asPlain('racf', 'a long pass phrase', 'phrase'), [
      { operation: 'replace', type: 'racfPassPhrase', values: ['a long pass phrase'] },
      { operation: 'replace', type: 'racfAttributes', values: ['noexpired'] },
    ]);
  });

  it('credential_type phrase changes nothing outside RACF', () => {
    assert.deepEqual(asPlain('ldapdir', 'pw', 'phrase'), [
      { operation: 'replace', type: 'userPassword', values: ['pw'] },
    ]);
  });
});
