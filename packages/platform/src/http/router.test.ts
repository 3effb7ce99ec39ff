import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from './router.js';

describe('Router', () => {
  const router = new Router<string>([
    { method: 'GET', pattern: '/organizations/:organization_name/subscription', handler: 'org-sub' },
    { method: 'GET', pattern: '/organizations/:organization_name', handler: 'org', includes: ['entitlement_set'] },
    { method: 'DELETE', pattern: '/organizations/:organization_name', handler: 'org-delete' },
  ]);

  it('matches segment by segment and decodes parameters', () => {
    assert.deepEqual(router.match('GET', '/organizations/a%20b/subscription'), {
      kind: 'found',
      handler: 'org-sub',
      params: { organization_name: 'a b' },
      includes: [],
    });
    assert.equal(router.match('GET', '/organizations/acme/').kind, 'found');
    // HEAD finds the GET route, with what it may include.
    const head = router.match('HEAD', '/organizations/acme');
    assert.equal(head.kind === 'found' && head.handler, 'org');
    assert.deepEqual(head.kind === 'found' && head.includes, ['entitlement_set']);
  });

  it('tells a wrong method (405, with the allowed ones) from an unknown path (404)', () => {
    assert.deepEqual(router.match('PATCH', '/organizations/acme'), {
      kind: 'method_not_allowed',
      allowed: ['GET', 'DELETE'],
    });
    assert.equal(router.match('GET', '/organizations/acme/nope').kind, 'not_found');
    assert.equal(router.match('GET', '/organizations').kind, 'not_found');
  });

  it('treats a malformed escape as no match rather than throwing', () => {
    assert.equal(router.match('GET', '/organizations/%E0%A4%A').kind, 'not_found');
  });
});
