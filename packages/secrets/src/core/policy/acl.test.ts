import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Acl, compileAcl } from './acl.js';
import { parsePolicy } from './policy-parser.js';

/** An ACL of one policy per text. */
async function aclOf(...texts: string[]): Promise<Acl> {
  return compileAcl(await Promise.all(texts.map((text, i) => parsePolicy(`p${i}`, text))));
}

/** `path "<p>" { capabilities = [...] }` blocks from a map of path → capabilities. */
function rules(map: Record<string, string[]>): string {
  return Object.entries(map)
    .map(([path, caps]) => `path "${path}" {\n capabilities = ${JSON.stringify(caps)}\n}`)
    .join('\n');
}

describe('Acl: matching precedence', () => {
  it('prefers an exact rule to any glob, even one granting more', async () => {
    const acl = await aclOf(rules({ 'secret/*': ['read', 'list'], 'secret/foo': ['update'] }));
    assert.deepEqual(acl.capabilities('secret/foo'), ['update']);
    assert.equal(acl.allowed('read', 'secret/foo').allowed, false);
    assert.equal(acl.allowed('read', 'secret/food').allowed, true);
  });

  it('takes the longest prefix rule', async () => {
    const acl = await aclOf(rules({ 'secret/*': ['read'], 'secret/team/*': ['deny'], '*': ['list'] }));
    assert.equal(acl.allowed('read', 'secret/other').allowed, true);
    assert.equal(acl.allowed('read', 'secret/team/x').allowed, false);
    assert.deepEqual(acl.capabilities('secret/team/x'), ['deny']);
    assert.deepEqual(acl.capabilities('kv/anything'), ['list']);
    // `secret/foo*` style prefixes match inside a segment too.
    assert.equal(acl.allowed('read', 'secret/').allowed, true);
  });

  it('ranks + rules as established: a later first wildcard wins (foo/a* over foo/+)', async () => {
    const acl = await aclOf(rules({ 'foo/a*': ['read'], 'foo/+': ['update'] }));
    assert.deepEqual(acl.capabilities('foo/abc'), ['read']);
    assert.deepEqual(acl.capabilities('foo/xyz'), ['update']);
    const deeper = await aclOf(rules({ 'foo/bar/+/baz': ['read'], 'foo/+/bar/baz': ['update'] }));
    assert.deepEqual(deeper.capabilities('foo/bar/bar/baz'), ['read']);
  });

  it('ranks a non-prefix rule over a prefix one (foo/+ over foo/*, foo/+/bar over foo/+/ba*)', async () => {
    const acl = await aclOf(rules({ 'foo/*': ['read'], 'foo/+': ['update'] }));
    assert.deepEqual(acl.capabilities('foo/x'), ['update']);
    assert.deepEqual(acl.capabilities('foo/x/y'), ['read']);
    const segments = await aclOf(rules({ 'foo/+/bar': ['read'], 'foo/+/ba*': ['update'] }));
    assert.deepEqual(segments.capabilities('foo/x/bar'), ['read']);
    assert.deepEqual(segments.capabilities('foo/x/baz'), ['update']);
  });

  it('ranks fewer + segments higher, then the longer path', async () => {
    const fewer = await aclOf(rules({ 'foo/+/bar/baz': ['read'], 'foo/+/+/baz': ['update'] }));
    assert.deepEqual(fewer.capabilities('foo/x/bar/baz'), ['read']);
    assert.deepEqual(fewer.capabilities('foo/x/qux/baz'), ['update']);
    const longer = await aclOf(rules({ 'foo/+/bar/ba*': ['read'], 'foo/+/bar/b*': ['update'] }));
    assert.deepEqual(longer.capabilities('foo/x/bar/bat'), ['read']);
    assert.deepEqual(longer.capabilities('foo/x/bar/bzz'), ['update']);
  });

  it('matches + against exactly one segment, anywhere in the path', async () => {
    const acl = await aclOf(rules({ 'secret/+/config': ['read'], '+/shared': ['list'] }));
    assert.equal(acl.allowed('read', 'secret/app/config').allowed, true);
    assert.equal(acl.allowed('read', 'secret/a/b/config').allowed, false);
    assert.equal(acl.allowed('read', 'secret/app/config/x').allowed, false);
    assert.equal(acl.allowed('list', 'kv/shared').allowed, true);
  });

  it('compares a + rule with the longest prefix rule', async () => {
    const acl = await aclOf(rules({ 'secret/*': ['read'], 'secret/+/admin': ['deny'] }));
    assert.equal(acl.allowed('read', 'secret/app/admin').allowed, false);
    assert.equal(acl.allowed('read', 'secret/app/user').allowed, true);
  });

  it('denies what no rule matches', async () => {
    const acl = await aclOf(rules({ 'secret/*': ['read'] }));
    const decision = acl.allowed('read', 'kv/x');
    assert.deepEqual(decision, { allowed: false, capabilities: ['deny'], isSudo: false });
    assert.deepEqual(acl.capabilities('kv/x'), ['deny']);
  });

  it('ignores leading slashes of the request path', async () => {
    const acl = await aclOf(rules({ 'secret/x': ['read'] }));
    assert.equal(acl.allowed('read', '//secret/x').allowed, true);
  });
});

describe('Acl: merging policies', () => {
  it('ORs capabilities of the same path across policies', async () => {
    const acl = await aclOf(rules({ 'secret/x': ['read'] }), rules({ 'secret/x': ['list', 'sudo'] }));
    assert.deepEqual(acl.capabilities('secret/x'), ['list', 'read', 'sudo']);
    assert.equal(acl.allowed('list', 'secret/x').isSudo, true);
  });

  it('lets deny win in whichever policy it appears', async () => {
    for (const order of [
      [rules({ 'secret/x': ['read', 'sudo'] }), rules({ 'secret/x': ['deny'] })],
      [rules({ 'secret/x': ['deny'] }), rules({ 'secret/x': ['read', 'sudo'] })],
    ]) {
      const acl = await aclOf(...order);
      assert.deepEqual(acl.allowed('read', 'secret/x'), { allowed: false, capabilities: ['deny'], isSudo: false });
    }
  });

  it('lets an empty allowed list (any value) win over listed values', async () => {
    const a = 'path "s" {\n capabilities = ["update"]\n allowed_parameters = { "color" = ["red"] }\n}';
    const b = 'path "s" {\n capabilities = ["update"]\n allowed_parameters = { "color" = [] }\n}';
    const acl = await aclOf(a, b);
    assert.equal(acl.allowed('update', 's', { color: 'green' }).allowed, true);
    const joined = await aclOf(a, a.replace('"red"', '"blue"'));
    assert.equal(joined.allowed('update', 's', { color: 'blue' }).allowed, true);
    assert.equal(joined.allowed('update', 's', { color: 'red' }).allowed, true);
    assert.equal(joined.allowed('update', 's', { color: 'green' }).allowed, false);
  });
});

describe('Acl: operations', () => {
  it('maps each operation to its capability, help needing none', async () => {
    const acl = await aclOf(rules({ s: ['create'] }));
    assert.equal(acl.allowed('create', 's').allowed, true);
    for (const op of ['read', 'update', 'patch', 'delete', 'list'] as const) {
      assert.equal(acl.allowed(op, 's').allowed, false, op);
    }
    assert.equal(acl.allowed('help', 'anything/at/all').allowed, true);
  });

  it('lets a list of foo/ use the rule for foo, exact or +', async () => {
    const acl = await aclOf(rules({ 'secret/metadata/app': ['list'], 'kv/+': ['list'] }));
    assert.equal(acl.allowed('list', 'secret/metadata/app/').allowed, true);
    assert.equal(acl.allowed('read', 'secret/metadata/app/').allowed, false);
    assert.equal(acl.allowed('list', 'kv/team/').allowed, true);
    assert.equal(acl.allowed('list', 'kv/team/x/').allowed, false);
  });

  it('grants everything to the root policy', async () => {
    const acl = compileAcl([{ name: 'root', paths: [] }]);
    assert.equal(acl.allowed('delete', 'sys/raw/x').allowed, true);
    assert.equal(acl.allowed('delete', 'sys/raw/x').isSudo, true);
    assert.deepEqual(acl.capabilities('anything'), ['root']);
  });

  it('checks wrapping TTL bounds only when set', async () => {
    const acl = await aclOf(
      'path "w" {\n capabilities = ["read"]\n min_wrapping_ttl = "1m"\n max_wrapping_ttl = "1h"\n}',
    );
    assert.equal(acl.allowed('read', 'w').allowed, false);
    assert.equal(acl.allowed('read', 'w', {}, { wrapTtlSeconds: 30 }).allowed, false);
    assert.equal(acl.allowed('read', 'w', {}, { wrapTtlSeconds: 300 }).allowed, true);
    assert.equal(acl.allowed('read', 'w', {}, { wrapTtlSeconds: 7200 }).allowed, false);
  });
});

describe('Acl: parameters', () => {
  const policy = `path "app/config" {
    capabilities = ["create", "update", "read", "delete"]
    required_parameters = ["env"]
    denied_parameters = { "debug" = [true], "owner" = ["root*"] }
    allowed_parameters = { "env" = ["dev", "prod-*"], "Region" = ["*-east", "*central*"], "size" = [] }
  }`;

  it('checks required parameters first, then lets an empty body pass', async () => {
    const acl = await aclOf(policy);
    assert.equal(acl.allowed('update', 'app/config', {}).allowed, false);
    const open = await aclOf('path "p" {\n capabilities = ["update"]\n allowed_parameters = { "a" = ["x"] }\n}');
    assert.equal(open.allowed('update', 'p', {}).allowed, true);
    assert.equal(open.allowed('update', 'p').allowed, true);
  });

  it('refuses denied values and values outside the allowed lists, with globs at either end', async () => {
    const acl = await aclOf(policy);
    const ok = (data: Record<string, unknown>) => acl.allowed('update', 'app/config', data).allowed;
    assert.equal(ok({ env: 'dev' }), true);
    assert.equal(ok({ env: 'prod-eu' }), true);
    assert.equal(ok({ env: 'staging' }), false);
    assert.equal(ok({ env: 'dev', region: 'us-east' }), true);
    assert.equal(ok({ env: 'dev', region: 'eu-central-1' }), true);
    assert.equal(ok({ env: 'dev', region: 'us-west' }), false);
    assert.equal(ok({ env: 'dev', size: 42 }), true);
    assert.equal(ok({ env: 'dev', colour: 'red' }), false, 'a parameter no list names');
    assert.equal(ok({ env: 'dev', debug: true }), false, 'denied non-string value, by deep equality');
    assert.equal(ok({ env: 'dev', owner: 'rooty' }), false, 'denied by trailing glob');
  });

  it('compares parameter names in lower case', async () => {
    const acl = await aclOf(policy);
    assert.equal(acl.allowed('update', 'app/config', { ENV: 'dev', REGION: 'us-east' }).allowed, true);
    assert.equal(acl.allowed('update', 'app/config', { Env: 'dev', DEBUG: true }).allowed, false);
  });

  it('applies to reads but not to deletes', async () => {
    const acl = await aclOf(policy);
    assert.equal(acl.allowed('read', 'app/config', { env: 'qa' }).allowed, false);
    assert.equal(acl.allowed('delete', 'app/config', { env: 'qa' }).allowed, true);
  });

  it('understands * as every parameter', async () => {
    const allowAll = await aclOf('path "p" {\n capabilities = ["update"]\n allowed_parameters = { "*" = [] }\n}');
    assert.equal(allowAll.allowed('update', 'p', { anything: 1 }).allowed, true);
    const denyAll = await aclOf('path "p" {\n capabilities = ["update"]\n denied_parameters = { "*" = [] }\n}');
    assert.equal(denyAll.allowed('update', 'p', { anything: 1 }).allowed, false);
    assert.equal(denyAll.allowed('update', 'p', {}).allowed, true);
    const mixed = await aclOf(
      'path "p" {\n capabilities = ["update"]\n allowed_parameters = { "*" = [], "color" = ["red"] }\n}',
    );
    assert.equal(mixed.allowed('update', 'p', { other: 1, color: 'red' }).allowed, true);
    assert.equal(mixed.allowed('update', 'p', { color: 'blue' }).allowed, false);
  });
});

describe('Acl: templated paths', () => {
  const text = `path "identity/entity/id/{{identity.entity.id}}" { capabilities = ["read"] }
    path "kv/{{identity.entity.name}}/*" { capabilities = ["read", "list"] }
    path "team/{{identity.entity.metadata.team}}" { capabilities = ["read"] }`;

  it('grants nothing through templated rules when the caller has no entity', async () => {
    const acl = await aclOf(text);
    assert.equal(acl.forEntity(undefined), acl);
    assert.equal(acl.allowed('read', 'identity/entity/id/').allowed, false);
    assert.equal(acl.allowed('read', 'identity/entity/id/{{identity.entity.id}}').allowed, false);
  });

  it("fills the caller's entity id, name and metadata", async () => {
    const acl = (await aclOf(text)).forEntity({ id: 'e-1', name: 'alice', metadata: { team: 'blue' } });
    assert.equal(acl.allowed('read', 'identity/entity/id/e-1').allowed, true);
    assert.equal(acl.allowed('read', 'identity/entity/id/e-2').allowed, false);
    assert.equal(acl.allowed('list', 'kv/alice/notes/').allowed, true);
    assert.equal(acl.allowed('read', 'kv/bob/notes').allowed, false);
    assert.equal(acl.allowed('read', 'team/blue').allowed, true);
  });

  it('skips a rule whose placeholder has no value, rather than matching an empty segment', async () => {
    const acl = (await aclOf(text)).forEntity({ id: 'e-1' });
    assert.equal(acl.allowed('read', 'kv//x').allowed, false);
    assert.equal(acl.allowed('read', 'team/').allowed, false);
    assert.equal(acl.allowed('read', 'identity/entity/id/e-1').allowed, true);
  });

  it('reuses the filled ACL for the same entity', async () => {
    const acl = await aclOf(text);
    assert.equal(acl.forEntity({ id: 'e-1', name: 'a' }), acl.forEntity({ id: 'e-1', name: 'a' }));
  });

  it('fills alias names and group names, and tells apart entities whose aliases or groups differ', async () => {
    const acl = await aclOf(`path "home/{{identity.entity.aliases.auth_up.name}}" { capabilities = ["read"] }
      path "groups/{{identity.groups.names.ops.id}}/*" { capabilities = ["read"] }`);
    const alice = acl.forEntity({
      id: 'e-1',
      aliases: [{ name: 'alice', mount_accessor: 'auth_up' }],
      groups: [{ id: 'g-1', name: 'ops' }],
    });
    assert.equal(alice.allowed('read', 'home/alice').allowed, true);
    assert.equal(alice.allowed('read', 'groups/g-1/x').allowed, true);
    const renamed = acl.forEntity({ id: 'e-1', aliases: [{ name: 'al', mount_accessor: 'auth_up' }], groups: [] });
    assert.equal(renamed.allowed('read', 'home/alice').allowed, false);
    assert.equal(renamed.allowed('read', 'home/al').allowed, true);
    assert.equal(renamed.allowed('read', 'groups/g-1/x').allowed, false);
  });
});

describe('Acl.hasAccessBelow (what sys/internal/ui/mounts shows)', () => {
  it('counts any granting rule at or below the mount, not a deny, and + rules that reach below it', async () => {
    const acl = await aclOf(rules({ 'secret/data/app/*': ['read'], 'team/x': ['deny'], 'kv/+/config': ['list'] }));
    assert.equal(acl.hasAccessBelow('secret/'), true);
    assert.equal(acl.hasAccessBelow('team/'), false);
    assert.equal(acl.hasAccessBelow('kv/'), true);
    assert.equal(acl.hasAccessBelow('other/'), false);
    const anyFirst = await aclOf(rules({ '+/shared/*': ['read'] }));
    assert.equal(anyFirst.hasAccessBelow('other/'), true, '+/shared/* reaches below any first segment');
    assert.equal(anyFirst.hasAccessBelow('other/deep/'), false);
    assert.equal((await aclOf(rules({ 'secret/*': ['read'] }))).hasAccessBelow('private/'), false);
  });
});
