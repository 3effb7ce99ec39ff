import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { parsePolicy } from './policy-parser.js';

/** Asserts that parsing `text` fails with a 400 whose message starts as established and contains `detail`. */
async function assertRefused(text: string, detail: string) {
  await assert.rejects(parsePolicy('p', text), (err: unknown) => {
    assert.ok(err instanceof InvalidRequestError, `not an InvalidRequestError: ${err}`);
    assert.ok(err.message.startsWith('failed to parse policy: '), err.message);
    assert.ok(err.message.includes(detail), `${err.message} lacks ${detail}`);
    return true;
  });
}

describe('parsePolicy: HCL', () => {
  it('reads path blocks with every capability', async () => {
    const policy = await parsePolicy(
      'all',
      `name = "ignored"
       path "secret/data/app" {
         capabilities = ["create", "read", "update", "patch", "delete", "list", "sudo"]
       }`,
    );
    assert.equal(policy.name, 'all');
    assert.equal(policy.paths.length, 1);
    const rule = policy.paths[0]!;
    assert.deepEqual([...rule.capabilities].sort(), ['create', 'delete', 'list', 'patch', 'read', 'sudo', 'update']);
    assert.equal(rule.path, 'secret/data/app');
    assert.equal(rule.isPrefix, false);
    assert.equal(rule.hasSegmentWildcards, false);
  });

  it('lets deny drop every other capability of the block', async () => {
    const { paths } = await parsePolicy('p', 'path "a" { capabilities = ["read", "deny", "sudo"] }');
    assert.deepEqual(paths[0]!.capabilities, ['deny']);
  });

  it('expands the legacy policy values', async () => {
    const expanded = async (value: string) => {
      const { paths } = await parsePolicy('p', `path "a" { policy = "${value}" }`);
      return [...paths[0]!.capabilities].sort();
    };
    assert.deepEqual(await expanded('deny'), ['deny']);
    assert.deepEqual(await expanded('read'), ['list', 'read']);
    assert.deepEqual(await expanded('write'), ['create', 'delete', 'list', 'read', 'update']);
    assert.deepEqual(await expanded('sudo'), ['create', 'delete', 'list', 'read', 'sudo', 'update']);
    await assertRefused('path "a" { policy = "admin" }', 'path "a": invalid policy "admin"');
  });

  it('marks prefix, segment-wildcard and templated paths, and strips a leading slash', async () => {
    const { paths } = await parsePolicy(
      'p',
      `path "/secret/*" { capabilities = ["read"] }
       path "secret/+/config" { capabilities = ["read"] }
       path "secret/+/team*" { capabilities = ["read"] }
       path "identity/entity/id/{{identity.entity.id}}" { capabilities = ["read"] }`,
    );
    // Order is not significant (the HCL parser sorts blocks by label).
    const byPath = (start: string) => paths.find((r) => r.path.startsWith(start));
    const [prefix, segment, segmentPrefix, templated] = ['secret/', 'secret/+/c', 'secret/+/t', 'identity/'].map(
      byPath,
    );
    assert.deepEqual([prefix!.path, prefix!.isPrefix, prefix!.hasSegmentWildcards], ['secret/', true, false]);
    assert.deepEqual(
      [segment!.path, segment!.isPrefix, segment!.hasSegmentWildcards],
      ['secret/+/config', false, true],
    );
    // A `+` rule keeps its `*`: ranking among candidates needs to see both.
    assert.deepEqual([segmentPrefix!.path, segmentPrefix!.isPrefix], ['secret/+/team*', true]);
    assert.equal(templated!.isTemplated, true);
    assert.equal(prefix!.isTemplated, false);
  });

  it('reads parameter rules with lower-cased names, in attribute and block form', async () => {
    const { paths } = await parsePolicy(
      'p',
      `path "a" {
         capabilities = ["update"]
         allowed_parameters = { "Color" = ["red", "b*"], "size" = [] }
         denied_parameters { secret = [] }
         required_parameters = ["Color"]
       }`,
    );
    const rule = paths[0]!;
    assert.deepEqual(
      rule.allowedParameters,
      new Map<string, unknown[]>([
        ['color', ['red', 'b*']],
        ['size', []],
      ]),
    );
    assert.deepEqual(rule.deniedParameters, new Map([['secret', []]]));
    assert.deepEqual(rule.requiredParameters, ['Color']);
  });

  it('parses wrapping TTLs from seconds or duration strings and checks their order', async () => {
    const { paths } = await parsePolicy(
      'p',
      'path "a" {\n capabilities = ["read"]\n min_wrapping_ttl = "1m"\n max_wrapping_ttl = 3600\n}',
    );
    assert.equal(paths[0]!.minWrappingTtlSeconds, 60);
    assert.equal(paths[0]!.maxWrappingTtlSeconds, 3600);
    await assertRefused(
      'path "a" {\n min_wrapping_ttl = "2h"\n max_wrapping_ttl = "1h"\n}',
      'max_wrapping_ttl cannot be less than min_wrapping_ttl',
    );
    await assertRefused('path "a" { min_wrapping_ttl = "soon" }', 'error parsing min_wrapping_ttl');
  });

  it('keeps repeated blocks for the same path as separate rules (the ACL merges them)', async () => {
    const { paths } = await parsePolicy(
      'p',
      'path "a" { capabilities = ["read"] }\npath "a" { capabilities = ["list"] }',
    );
    assert.deepEqual(
      paths.map((r) => r.capabilities),
      [['read'], ['list']],
    );
  });

  it('accepts an empty document', async () => {
    assert.deepEqual((await parsePolicy('p', '')).paths, []);
  });
});

describe('parsePolicy: JSON', () => {
  it('reads the map form and the list form', async () => {
    const map = await parsePolicy('p', JSON.stringify({ path: { 'secret/*': { capabilities: ['read', 'list'] } } }));
    assert.deepEqual(map.paths[0]!.capabilities, ['read', 'list']);
    assert.equal(map.paths[0]!.isPrefix, true);
    const list = await parsePolicy('p', JSON.stringify({ path: [{ 'a/b': [{ policy: 'read' }] }] }));
    assert.equal(list.paths[0]!.path, 'a/b');
    assert.deepEqual([...list.paths[0]!.capabilities].sort(), ['list', 'read']);
  });

  it('reports malformed JSON as a parse failure', async () => {
    await assertRefused('{"path": ', 'At 1:10: Unknown token: EOF');
  });
});

describe('parsePolicy: refusals', () => {
  it('names the path and the capability it does not know', async () => {
    await assertRefused(
      'path "secret/x" { capabilities = ["read", "fly"] }',
      'path "secret/x": invalid capability "fly"',
    );
  });

  it('refuses +* in a path', async () => {
    await assertRefused('path "secret/+*" { capabilities = ["read"] }', "invalid use of wildcards ('+*' is forbidden)");
  });

  it('refuses unknown keys, which would otherwise be typos that silently grant nothing', async () => {
    await assertRefused('path "a" { capabilites = ["read"] }', 'path "a": invalid key "capabilites"');
    await assertRefused('paths "a" { capabilities = ["read"] }', 'invalid key "paths"');
  });

  it('reports HCL syntax errors with the parser detail', async () => {
    await assertRefused('path "a" { capabilities = ', 'At 1:27: Unknown token: EOF');
  });

  it('refuses parameter values that are not lists', async () => {
    await assertRefused('path "a" { allowed_parameters = { "x" = "y" } }', 'values of "x" must be a list');
  });
});
