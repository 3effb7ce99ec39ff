import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CaseMatch, type CaseRoute, routerCases } from './router.case.js';
import { type RouteMatch, Router, type RouterOptions } from './router.js';
import { compileSegmentPattern } from './segment-pattern.js';

interface Entry extends CaseRoute {
  method: readonly string[];
}

/** Base's Router in the case suite's terms. */
function caseRouter(options: RouterOptions) {
  return (routes: readonly CaseRoute[]) => {
    const router = new Router<Entry>(
      routes.map((r) => ({ ...r, method: r.methods })),
      options,
    );
    return { match: (method: string, path: string): CaseMatch => asCase(router.match(method, path)) };
  };
}

function asCase(m: RouteMatch<Entry>): CaseMatch {
  if (m.kind === 'found') return { kind: 'found', id: m.route.id, params: m.params };
  if (m.kind === 'bad_escape') return { kind: 'bad_escape' };
  return m;
}

describe('Router: exact slashes, no decoding', () => {
  routerCases(caseRouter({}), {
    methods: true,
    slashes: 'exact',
    decodes: false,
    precedence: 'specific',
    headAsGet: false,
  });
});

describe('Router: loose slashes, decoding, HEAD as GET', () => {
  routerCases(caseRouter({ looseSlashes: true, decode: true, headAsGet: true }), {
    methods: true,
    slashes: 'loose',
    decodes: true,
    precedence: 'specific',
    headAsGet: true,
  });
});

describe('compileSegmentPattern', () => {
  it('refuses a malformed capture, a name captured twice, two rests and an optional :name', () => {
    for (const bad of ['a/:', 'a/:Na-me', 'a/*1x', 'a/:x/b/:x', 'a/*x/*y', 'a/:x?']) {
      assert.throws(() => compileSegmentPattern(bad), { code: 'invalid_pattern' }, bad);
    }
  });

  it('lists its captures in order', () => {
    assert.deepEqual(compileSegmentPattern('r/:role/k/*rest?').captures, ['role', 'rest']);
    assert.deepEqual(compileSegmentPattern('pprof/*').captures, ['*']);
  });
});
