import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CaseMatch, routerCases } from '@ward/base/router-cases';
import { type Method, platformRouter } from './router.js';

describe('the platform router (base Router as router.ts sets it up)', () => {
  routerCases(
    (routes) => {
      const router = platformRouter(
        routes.flatMap((r) =>
          r.methods.map((method) => ({ method: method as Method, pattern: r.pattern, handler: r.id })),
        ),
      );
      return {
        match(method: string, path: string): CaseMatch {
          const m = router.match(method, path);
          if (m.kind === 'found') return { kind: 'found', id: m.route.handler, params: m.params };
          return m.kind === 'bad_escape' ? { kind: 'bad_escape' } : m;
        },
      };
    },
    { methods: true, slashes: 'loose', decodes: true, precedence: 'specific', headAsGet: true },
  );

  it('hands back the route with what ?include= may name on it, HEAD included', () => {
    const router = platformRouter([
      { method: 'GET', pattern: '/organizations/:organization_name/subscription', handler: 'org-sub' },
      { method: 'GET', pattern: '/organizations/:organization_name', handler: 'org', includes: ['entitlement_set'] },
      { method: 'DELETE', pattern: '/organizations/:organization_name', handler: 'org-delete' },
    ]);
    const head = router.match('HEAD', '/organizations/acme');
    assert.equal(head.kind === 'found' && head.route.handler, 'org');
    assert.deepEqual(head.kind === 'found' && head.route.includes, ['entitlement_set']);
    assert.deepEqual(router.match('PATCH', '/organizations/acme'), {
      kind: 'method_not_allowed',
      allowed: ['GET', 'DELETE'],
    });
  });
});
