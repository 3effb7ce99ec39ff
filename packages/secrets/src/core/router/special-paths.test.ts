import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesSpecialPath } from './special-paths.js';

describe('matchesSpecialPath', () => {
  it('matches exact entries, prefixes ending in *, and + as one whole segment', () => {
    const globs = ['ca/pem', 'cert/*', 'issuer/+/pem', 'issuer/+/crl*'];
    for (const path of ['ca/pem', 'cert/01:02', 'issuer/default/pem', 'issuer/x/crl', 'issuer/x/crl/delta/pem'])
      assert.ok(matchesSpecialPath(globs, path), path);
    for (const path of ['ca', 'issuer/default', 'issuer//pem', 'issuer/a/b/pem', 'issuer/x/pem/more', 'issuer/x/json'])
      assert.ok(!matchesSpecialPath(globs, path), path);
  });
});
