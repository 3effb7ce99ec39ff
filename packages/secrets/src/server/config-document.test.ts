import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBool } from './config-document.js';

describe('parseBool (configuration booleans)', () => {
  it("reads Go's boolean words, bare booleans, 0 and 1, and takes absent or empty as false", () => {
    for (const yes of [true, 1, '1', 't', 'T', 'true', 'TRUE', 'True'])
      assert.equal(parseBool(yes, 'k'), true, String(yes));
    for (const no of [undefined, false, 0, '', '0', 'f', 'F', 'false', 'FALSE', 'False']) {
      assert.equal(parseBool(no, 'k'), false, String(no));
    }
  });

  it('refuses any other word or value, naming the key', () => {
    for (const bad of ['yes', 'tRuE', ' true', 'on', 2, [], {}]) {
      assert.throws(() => parseBool(bad, 'tls_skip_verify'), /tls_skip_verify must be true or false/, String(bad));
    }
  });
});
