import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CaseMatch, routerCases } from '@ward/base/router-cases';
import { compilePattern, matchFirst } from './pattern.js';

describe('compilePattern', () => {
  it('matches literal segments exactly', () => {
    const p = compilePattern('config');
    assert.deepEqual(p.match('config'), {});
    assert.equal(p.match('config/'), undefined);
    assert.equal(p.match('configs'), undefined);
    assert.equal(p.match('xconfig'), undefined);
    assert.deepEqual(p.captures, []);
  });

  it('treats regex characters in literals as plain text', () => {
    const p = compilePattern('a.b/c+d');
    assert.deepEqual(p.match('a.b/c+d'), {});
    assert.equal(p.match('aXb/c+d'), undefined);
    assert.equal(p.match('a.b/cd'), undefined);
  });

  it('captures one segment with :name', () => {
    const p = compilePattern('keys/:name');
    assert.deepEqual(p.captures, ['name']);
    assert.deepEqual(p.match('keys/app'), { name: 'app' });
    assert.equal(p.match('keys/a/b'), undefined);
    assert.equal(p.match('keys/'), undefined);
  });

  it('captures several segments in order', () => {
    const p = compilePattern('roles/:role/keys/:name');
    assert.deepEqual(p.captures, ['role', 'name']);
    assert.deepEqual(p.match('roles/r1/keys/k1'), { role: 'r1', name: 'k1' });
  });

  it('captures the rest of the path, slashes included, with *name', () => {
    const p = compilePattern('data/*path');
    assert.deepEqual(p.match('data/a'), { path: 'a' });
    assert.deepEqual(p.match('data/a/b/c'), { path: 'a/b/c' });
    assert.equal(p.match('data/'), undefined);
    assert.equal(p.match('data'), undefined);
  });

  it('lets an optional greedy capture be empty', () => {
    const p = compilePattern('metadata/*path?');
    assert.deepEqual(p.match('metadata/'), { path: '' });
    assert.deepEqual(p.match('metadata/a/'), { path: 'a/' });
    assert.deepEqual(p.match('metadata/a/b'), { path: 'a/b' });
    assert.equal(p.match('metadata'), undefined);
  });

  it('matches a whole-mount optional capture, as KV v1 uses', () => {
    const p = compilePattern('*path?');
    assert.deepEqual(p.match(''), { path: '' });
    assert.deepEqual(p.match('x/y/'), { path: 'x/y/' });
  });

  it('lets a greedy capture be followed by literal segments', () => {
    const p = compilePattern('mounts/*path/tune');
    assert.deepEqual(p.match('mounts/secret/tune'), { path: 'secret' });
    assert.deepEqual(p.match('mounts/a/b/tune'), { path: 'a/b' });
    assert.deepEqual(p.match('mounts/tune/tune'), { path: 'tune' });
    assert.equal(p.match('mounts/tune'), undefined);
    assert.equal(p.match('mounts/a/tuner'), undefined);
  });

  it('refuses a captured value ending in a period, so such a path matches nothing', () => {
    assert.equal(compilePattern('keys/:name').match('keys/app.'), undefined);
    assert.equal(compilePattern('data/*path').match('data/a/b.'), undefined);
    assert.equal(compilePattern('mounts/*path/tune').match('mounts/x./tune'), undefined);
    // A period elsewhere is fine.
    assert.deepEqual(compilePattern('keys/:name').match('keys/a.b'), { name: 'a.b' });
    assert.deepEqual(compilePattern('data/*path').match('data/a./b'), { path: 'a./b' });
  });

  it('prints the OpenAPI path with {name} for every capture', () => {
    assert.equal(compilePattern('config').openapiPath, '/config');
    assert.equal(compilePattern('keys/:name').openapiPath, '/keys/{name}');
    assert.equal(compilePattern('data/*path').openapiPath, '/data/{path}');
    assert.equal(compilePattern('metadata/*path?').openapiPath, '/metadata/{path}');
    assert.equal(compilePattern('mounts/*path/tune').openapiPath, '/mounts/{path}/tune');
    assert.equal(compilePattern('roles/:role/keys/:name').openapiPath, '/roles/{role}/keys/{name}');
  });

  it('keeps its source for help output', () => {
    assert.equal(compilePattern('data/*path').source, 'data/*path');
  });

  it('refuses a capture segment it cannot read instead of matching it literally', () => {
    for (const bad of ['keys/:Name', 'keys/:', 'data/*', 'keys/:na-me']) {
      assert.throws(() => compilePattern(bad), /invalid path pattern/, bad);
    }
  });

  it('refuses a name captured twice', () => {
    assert.throws(() => compilePattern('a/:name/b/:name'), /invalid path pattern/);
  });

  it('builds back the path it matches from captured values (issue 28: the folded path)', () => {
    const p = compilePattern('role/:role_name/secret-id/*rest?');
    assert.equal(p.build({ role_name: 'admin', rest: 'x/y' }), 'role/admin/secret-id/x/y');
    assert.equal(p.build({ role_name: 'admin', rest: '' }), 'role/admin/secret-id/');
  });
});

describe('the framework path matcher (matchFirst over compilePattern)', () => {
  // Paths carry no leading slash and arrive decoded; base's cases are written with one.
  const strip = (text: string) => text.replace(/^\//, '');
  routerCases(
    (routes) => {
      const defs = routes.map((r) => ({ id: r.id, pattern: compilePattern(strip(r.pattern)) }));
      return {
        match(_method: string, path: string): CaseMatch {
          const found = matchFirst(defs, strip(path));
          return found ? { kind: 'found', id: found.def.id, params: found.captured } : { kind: 'not_found' };
        },
      };
    },
    { methods: false, slashes: 'exact', decodes: false, precedence: 'declared', headAsGet: false },
  );

  it('keeps a newline out of a *rest, as the Go regex `.` does', () => {
    assert.equal(compilePattern('data/*path').match('data/a\nb'), undefined);
    assert.deepEqual(compilePattern('keys/:name').match('keys/a\nb'), { name: 'a\nb' });
  });
});
