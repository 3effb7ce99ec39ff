import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoBool } from './go-bool.js';

describe('parseGoBool (the one Go boolean word set)', () => {
  it("reads strconv.ParseBool's twelve words", () => {
    for (const word of ['1', 't', 'T', 'true', 'TRUE', 'True']) assert.equal(parseGoBool(word), true, word);
    for (const word of ['0', 'f', 'F', 'false', 'FALSE', 'False']) assert.equal(parseGoBool(word), false, word);
  });

  it('answers undefined for anything else, including the empty string and object keys', () => {
    for (const word of ['', 'yes', 'no', 'tRUE', 'fAlSe', ' true', 'true ', '2', 'on', 'constructor', '__proto__']) {
      assert.equal(parseGoBool(word), undefined, JSON.stringify(word));
    }
  });
});
