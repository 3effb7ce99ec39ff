import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { type CaseMatch, routerCases } from '@ward/base/router-cases';
import { InvalidRequestError } from '../errors.js';
import { requestToken } from './request.js';
import { matchRoute, ROUTES, routeTable } from './routes.js';

describe('route table', () => {
  it('matches by method and path, capturing :name and the * tail', () => {
    const m = matchRoute('DELETE', '/v1/acl/policy/ops');
    assert.ok(m && m !== 'wrong-method');
    assert.equal(m.route.methods[0], 'DELETE');
    assert.deepEqual(m.params, { name: 'ops' });
    const p = matchRoute('GET', '/v1/agent/pprof/heap');
    assert.ok(p && p !== 'wrong-method');
    assert.deepEqual(p.params, { '*': 'heap' });
  });

  it('tells a wrong verb (405) from an unknown path (404)', () => {
    assert.equal(matchRoute('DELETE', '/v1/agent/members'), 'wrong-method');
    assert.equal(matchRoute('GET', '/v1/agent/nope'), undefined);
    assert.equal(matchRoute('GET', '/v1/agent/members/extra'), undefined);
  });

  it('prefers token/self over token/:accessor', () => {
    const m = matchRoute('GET', '/v1/acl/token/self');
    assert.ok(m && m !== 'wrong-method');
    assert.deepEqual(m.params, {});
  });

  it('accepts PUT wherever it accepts POST', () => {
    for (const r of ROUTES) assert.equal(r.methods.includes('PUT'), r.methods.includes('POST'), r.path);
  });
});

describe('requestToken', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('reads X-Cluster-Token, then X-Nomad-Token, then a Bearer token', () => {
    assert.equal(requestToken(req({ 'x-cluster-token': 'a', 'x-nomad-token': 'b', authorization: 'Bearer c' })), 'a');
    assert.equal(requestToken(req({ 'x-nomad-token': 'b', authorization: 'Bearer c' })), 'b');
    assert.equal(requestToken(req({ authorization: 'BEARER c d' })), 'c');
    assert.equal(requestToken(req({ authorization: 'Basic xyz' })), undefined);
    assert.equal(requestToken(req({})), undefined);
  });
});

describe('the agent router (base Router as routes.ts sets it up)', () => {
  routerCases(
    (routes) => {
      const table = routeTable(
        routes.map((r) => ({
          methods: r.methods,
          path: r.pattern,
          need: 'none',
          handler: async () => {
            throw new Error(r.id);
          },
          id: r.id,
        })),
      );
      return {
        match(method: string, path: string): CaseMatch {
          try {
            const m = matchRoute(method, path, table);
            if (m === undefined) return { kind: 'not_found' };
            if (m === 'wrong-method') return { kind: 'method_not_allowed' };
            return { kind: 'found', id: (m.route as { id?: string }).id ?? '', params: m.params };
          } catch (err) {
            if (err instanceof InvalidRequestError) return { kind: 'bad_escape' };
            throw err;
          }
        },
      };
    },
    { methods: true, slashes: 'exact', decodes: true, precedence: 'specific', headAsGet: false },
  );
});
