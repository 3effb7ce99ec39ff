import assert from 'node:assert/strict';
import { it } from 'node:test';

/** A route as the cases declare it; patterns begin with `/` (a matcher without one strips it). */
export interface CaseRoute {
  readonly methods: readonly string[];
  readonly pattern: string;
  /** What the case expects to be found. */
  readonly id: string;
}

export type CaseMatch =
  | { kind: 'found'; id: string; params: Record<string, string> }
  /** `allowed`: the methods the path offers, when the router tells them. */
  | { kind: 'method_not_allowed'; allowed?: readonly string[] }
  | { kind: 'not_found' }
  | { kind: 'bad_escape' };

export interface RouterUnderTest {
  match(method: string, path: string): CaseMatch;
}

/** How the matcher under test is meant to differ from the others; each case follows these. */
export interface RouterTraits {
  /** Whether it routes on the method (the secrets framework routes on the path alone). */
  readonly methods: boolean;
  /** `loose`: empty segments (a trailing or doubled slash) are ignored; `exact`: they are segments. */
  readonly slashes: 'exact' | 'loose';
  /** Whether captures are percent-decoded (the secrets server's paths arrive decoded already). */
  readonly decodes: boolean;
  /** `specific`: literal beats capture in any order; `declared`: the first declared match wins (Vault's framework). */
  readonly precedence: 'specific' | 'declared';
  /** Whether HEAD finds the GET route. */
  readonly headAsGet: boolean;
}

/**
 * The contract every path router in the tree keeps (as storage.case.ts does for storage): the agent's
 * and the platform's (base's `Router`) and the secrets framework's path matcher. Each package's test
 * calls this inside its `describe`; `make` builds the router under test from a route table.
 */
export function routerCases(make: (routes: readonly CaseRoute[]) => RouterUnderTest, traits: RouterTraits): void {
  const any = ['GET'];
  const router = (...routes: Array<[string, string, string[]?]>) =>
    make(routes.map(([pattern, id, methods = any]) => ({ pattern, id, methods })));
  const found = (r: RouterUnderTest, path: string, id: string, params: Record<string, string>, method = 'GET') =>
    assert.deepEqual(r.match(method, path), { kind: 'found', id, params }, path);
  const missing = (r: RouterUnderTest, path: string, method = 'GET') =>
    assert.deepEqual(r.match(method, path), { kind: 'not_found' }, path);
  const loose = traits.slashes === 'loose';

  it('matches literal segments exactly, and nothing longer, shorter or merely prefixed', () => {
    const r = router(['/a/b', 'ab'], ['/a.b/c+d', 'dots']);
    found(r, '/a/b', 'ab', {});
    found(r, '/a.b/c+d', 'dots', {});
    for (const path of ['/a', '/a/c', '/a/b/c', '/a/bc', '/ab', '/A/b', '/axb/c+d', '/a.b/cd']) missing(r, path);
  });

  it('captures one non-empty segment per :name', () => {
    const r = router(['/keys/:name', 'key'], ['/roles/:role/keys/:name', 'role-key']);
    found(r, '/keys/app', 'key', { name: 'app' });
    found(r, '/keys/a.b', 'key', { name: 'a.b' });
    found(r, '/roles/r1/keys/k1', 'role-key', { role: 'r1', name: 'k1' });
    for (const path of ['/keys', '/keys/', '/keys/a/b', '/roles/r1/keys', '/roles//keys/k1']) missing(r, path);
  });

  it('captures names that a plain object also answers (constructor, __proto__) as ordinary values', () => {
    const r = router(['/keys/:name', 'key']);
    found(r, '/keys/constructor', 'key', { name: 'constructor' });
    found(r, '/keys/toString', 'key', { name: 'toString' });
    missing(r, '/constructor');
  });

  it('captures the rest of the path with a *rest, which needs at least one character', () => {
    const r = router(['/files/*path', 'files']);
    found(r, '/files/a', 'files', { path: 'a' });
    found(r, '/files/a/b/c', 'files', { path: 'a/b/c' });
    missing(r, '/files');
    missing(r, '/file/a');
    missing(r, '/files/');
  });

  it('lets an optional *rest? be empty', () => {
    const r = router(['/list/*path?', 'list']);
    found(r, '/list/', 'list', { path: '' });
    found(r, '/list/a/b', 'list', { path: 'a/b' });
    if (loose) found(r, '/list', 'list', { path: '' });
    else missing(r, '/list');
  });

  it('lets fixed segments follow a *rest, which takes all the segments before them', () => {
    const r = router(['/mounts/*path/tune', 'tune'], ['/x/*path/:leaf', 'leaf']);
    found(r, '/mounts/a/tune', 'tune', { path: 'a' });
    found(r, '/mounts/a/b/tune', 'tune', { path: 'a/b' });
    found(r, '/mounts/tune/tune', 'tune', { path: 'tune' });
    found(r, '/mounts/a/tune/tune', 'tune', { path: 'a/tune' });
    found(r, '/x/a/b/c', 'leaf', { path: 'a/b', leaf: 'c' });
    for (const path of ['/mounts/tune', '/mounts/a/tunes', '/mounts/a/tune/x', '/x/a']) missing(r, path);
  });

  it('prefers a literal over a capture at the same place', () => {
    const literalFirst = router(['/token/self', 'self'], ['/token/:accessor', 'accessor']);
    found(literalFirst, '/token/self', 'self', {});
    found(literalFirst, '/token/abc', 'accessor', { accessor: 'abc' });
    const captureFirst = router(['/token/:accessor', 'accessor'], ['/token/self', 'self']);
    if (traits.precedence === 'specific') found(captureFirst, '/token/self', 'self', {});
    else found(captureFirst, '/token/self', 'accessor', { accessor: 'self' });
    const restFirst = router(['/kv/*path', 'rest'], ['/kv/:name', 'one']);
    if (traits.precedence === 'specific') found(restFirst, '/kv/a', 'one', { name: 'a' });
    else found(restFirst, '/kv/a', 'rest', { path: 'a' });
    found(restFirst, '/kv/a/b', 'rest', { path: 'a/b' });
  });

  it(`treats a trailing or doubled slash as ${loose ? 'nothing' : 'an empty segment'}`, () => {
    const r = router(['/a/b', 'ab'], ['/c/:name', 'c']);
    for (const path of ['/a/b/', '/a//b', '//a/b']) {
      if (loose) found(r, path, 'ab', {});
      else missing(r, path);
    }
    if (loose) found(r, '/c/x/', 'c', { name: 'x' });
    else missing(r, '/c/x/');
  });

  it(`${traits.decodes ? 'decodes' : 'keeps'} percent-escapes in captures and compares literals as sent`, () => {
    const r = router(['/keys/:name', 'key'], ['/files/*path', 'files']);
    found(r, '/keys/a%20b', 'key', { name: traits.decodes ? 'a b' : 'a%20b' });
    found(r, '/files/a%2Fb/c', 'files', { path: traits.decodes ? 'a/b/c' : 'a%2Fb/c' });
    missing(r, '/k%65ys/a');
    const malformed = r.match('GET', '/keys/%E0%A4%A');
    if (traits.decodes) assert.equal(malformed.kind, 'bad_escape');
    else assert.deepEqual(malformed, { kind: 'found', id: 'key', params: { name: '%E0%A4%A' } });
  });

  if (traits.methods) {
    it('tells a method the path does not offer (405, with the ones it does) from an unknown path (404)', () => {
      const r = router(['/m', 'get'], ['/m', 'delete', ['DELETE']], ['/w', 'write', ['PUT', 'POST']]);
      found(r, '/m', 'get', {});
      found(r, '/m', 'delete', {}, 'DELETE');
      found(r, '/w', 'write', {}, 'PUT');
      found(r, '/w', 'write', {}, 'POST');
      const wrong = r.match('PATCH', '/m');
      assert.equal(wrong.kind, 'method_not_allowed');
      if (wrong.kind === 'method_not_allowed' && wrong.allowed)
        assert.deepEqual([...wrong.allowed].sort(), ['DELETE', 'GET']);
      missing(r, '/nope', 'PATCH');
      missing(r, '/nope');
    });

    it('finds a capture route of the method when the literal route is of another', () => {
      const r = router(['/token/self', 'self'], ['/token/:accessor', 'write', ['PUT']]);
      found(r, '/token/self', 'write', { accessor: 'self' }, 'PUT');
      assert.equal(r.match('DELETE', '/token/self').kind, 'method_not_allowed');
    });

    it(`${traits.headAsGet ? 'answers' : 'refuses'} HEAD with the GET route`, () => {
      const r = router(['/m', 'get']);
      if (traits.headAsGet) found(r, '/m', 'get', {}, 'HEAD');
      else assert.equal(r.match('HEAD', '/m').kind, 'method_not_allowed');
    });
  }
}
