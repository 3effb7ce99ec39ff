import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERRORS, errorReply, MethodNotAllowedError, NotFoundError, UnprocessableError } from './errors.js';

describe('errorReply', () => {
  it('keeps the established 404 body exactly', () => {
    assert.deepEqual(
      errorReply(new NotFoundError('Subscription not found'), () => {}),
      {
        status: 404,
        headers: {},
        body: { errors: [{ status: '404', title: 'not found' }] },
      },
    );
  });

  it('gives other errors a string status, code, detail and source', () => {
    const reply = errorReply(
      new UnprocessableError('name is required', { source: { pointer: '/data/attributes/name' } }),
      () => {},
    );
    assert.equal(reply.status, 422);
    assert.deepEqual(reply.body.errors[0], {
      status: '422',
      title: 'invalid attribute',
      detail: 'name is required',
      code: 'unprocessable',
      source: { pointer: '/data/attributes/name' },
    });
    assert.equal(errorReply(new MethodNotAllowedError(['GET']), () => {}).headers.allow, 'GET');
  });

  it('hides unknown errors behind a bare 500 and hands them to the log', () => {
    const logged: unknown[] = [];
    const boom = new Error('database is locked at /secret/path');
    const reply = errorReply(boom, (e) => logged.push(e));
    assert.deepEqual(reply.body, { errors: [{ status: '500', title: 'internal error' }] });
    assert.deepEqual(logged, [boom]);
  });

  it('documents every error code in the README', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const [code, { status }] of Object.entries(ERRORS)) {
      assert.match(readme, new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`), `README lacks ${code}`);
    }
  });
});
