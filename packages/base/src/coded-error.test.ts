import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CodedError, isCodedError } from './coded-error.js';

type Code = 'bad' | 'gone';

class BadError extends CodedError<Code> {
  readonly code = 'bad';
}

describe('CodedError', () => {
  it('carries its code, its class name and its cause', () => {
    const cause = new Error('underneath');
    const err = new BadError('it went wrong', { cause });
    assert.equal(err.code, 'bad');
    assert.equal(err.name, 'BadError');
    assert.equal(err.message, 'it went wrong');
    assert.equal(err.cause, cause);
    assert.ok(err instanceof Error);
    assert.match(String(err.stack), /^BadError: it went wrong/);
  });

  it('tells coded errors from plain ones', () => {
    assert.equal(isCodedError(new BadError('x')), true);
    assert.equal(isCodedError(new Error('x')), false);
    assert.equal(isCodedError({ code: 'bad', message: 'x' }), false);
  });
});
