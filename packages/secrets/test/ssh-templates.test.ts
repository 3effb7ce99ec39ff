import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { run } from './sshd.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 32 / the SSH engine: a CA role's allowed_users_template, default_user_template,
// allowed_domains_template and default_extensions_template fill identity templates from the
// caller's entity, through bin/ward; ssh-keygen -L reads the certificates.

const ROOT = 'ssh-templates-root';

describe('ssh role templates through bin/ward', () => {
  let dev: DevWard;
  let dir: string;
  let publicKey: string;
  let accessor: string;
  const login = async (user: string) =>
    (await dev.ok('POST', `auth/userpass/login/${user}`, { password: 'pw' })).auth.client_token as string;
  /** `ssh-keygen -L` of a signed certificate. */
  const listing = async (signedKey: string, name: string) => {
    const path = join(dir, `${name}-cert.pub`);
    await writeFile(path, signedKey);
    return (await run('ssh-keygen', ['-L', '-f', path])).stdout;
  };
  const principalsIn = (text: string) =>
    (text.match(/Principals: \n((?:\s{16}\S+\n)+)/)?.[1] ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);

  before(async () => {
    dev = await startDevWard(ROOT);
    dir = await mkdtemp(join(tmpdir(), 'ward-ssh-templates-'));
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'id')]);
    publicKey = await readFile(join(dir, 'id.pub'), 'utf8');
    await dev.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    accessor = (await dev.ok('GET', 'sys/auth')).data['userpass/'].accessor;
    await dev.ok('POST', 'sys/mounts/ssh', { type: 'ssh' });
    await dev.ok('POST', 'ssh/config/ca', { key_type: 'ssh-ed25519' });
    await dev.ok('PUT', 'sys/policies/acl/signer', {
      policy: 'path "ssh/sign/*" { capabilities = ["update"] }\npath "ssh/issue/*" { capabilities = ["update"] }',
    });
    for (const user of ['alice', 'bob'])
      await dev.ok('POST', `auth/userpass/users/${user}`, { password: 'pw', token_policies: 'signer' });
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("signs user certificates for the caller's own names only", async () => {
    const alias = `{{identity.entity.aliases.${accessor}.name}}`;
    await dev.ok('POST', 'ssh/roles/mine', {
      key_type: 'ca',
      allow_user_certificates: true,
      allowed_users: `${alias},{{identity.entity.metadata.unix_user}},{{identity.groups.names.ops.metadata.shared}},guest`,
      allowed_users_template: true,
      default_user: alias,
      default_user_template: true,
      allowed_extensions: 'permit-pty',
      default_extensions: { 'permit-pty': '', 'login@ward': alias },
      default_extensions_template: true,
      ttl: '10m',
    });
    const alice = await login('alice');
    const aliceEntity = (await dev.ok('GET', 'auth/token/lookup-self', undefined, alice)).data.entity_id;

    // No valid_principals: the filled default user; the templated extension holds the alias name.
    const plain = await dev.ok('POST', 'ssh/sign/mine', { public_key: publicKey }, alice);
    const plainListing = await listing(plain.data.signed_key, 'plain');
    assert.deepEqual(principalsIn(plainListing), ['alice']);
    const aliceValue = `${Buffer.from([0, 0, 0, 5]).toString('hex')}${Buffer.from('alice').toString('hex')}`;
    assert.match(plainListing, new RegExp(`login@ward UNKNOWN OPTION: ${aliceValue} \\(len 9\\)`));
    assert.match(plainListing, /\n\s+permit-pty\n/);

    // Metadata and group templates fill once the entity has them.
    const refused = await dev.call(
      'POST',
      'ssh/sign/mine',
      { public_key: publicKey, valid_principals: 'alice-admin' },
      alice,
    );
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    await dev.ok('POST', `identity/entity/id/${aliceEntity}`, { metadata: { unix_user: 'alice-admin' } });
    await dev.ok('POST', 'identity/group', {
      name: 'ops',
      member_entity_ids: [aliceEntity],
      metadata: { shared: 'opsuser' },
    });
    const many = await dev.ok(
      'POST',
      'ssh/sign/mine',
      { public_key: publicKey, valid_principals: 'alice,alice-admin,opsuser,guest' },
      alice,
    );
    assert.deepEqual(principalsIn(await listing(many.data.signed_key, 'many')), [
      'alice',
      'alice-admin',
      'opsuser',
      'guest',
    ]);

    // Another user's names are refused (400), to alice and to bob.
    for (const [token, name] of [
      [alice, 'bob'],
      [await login('bob'), 'alice'],
      [await login('bob'), 'opsuser'],
    ] as const) {
      const other = await dev.call('POST', 'ssh/sign/mine', { public_key: publicKey, valid_principals: name }, token);
      assert.equal(other.status, 400, `${name}: ${JSON.stringify(other.body)}`);
    }
    const bob = await dev.ok('POST', 'ssh/issue/mine', { key_type: 'ed25519' }, await login('bob'));
    assert.deepEqual(principalsIn(await listing(bob.data.signed_key, 'bob')), ['bob']);

    // A filled value with a comma adds no principals (allow_commas_in_identity_templates is off).
    await dev.ok('POST', `identity/entity/id/${aliceEntity}`, { metadata: { unix_user: 'root,alice-admin' } });
    for (const name of ['root', 'alice-admin', 'root,alice-admin']) {
      const injected = await dev.call(
        'POST',
        'ssh/sign/mine',
        { public_key: publicKey, valid_principals: name },
        alice,
      );
      assert.equal(injected.status, 400, `${name}: ${JSON.stringify(injected.body)}`);
    }
    await dev.ok('POST', 'ssh/sign/mine', { public_key: publicKey, valid_principals: 'alice' }, alice);

    // The root token has no entity: templated entries allow nothing, plain ones still do, the
    // templated default user cannot be filled, and the templated extension is left out with a warning.
    const root = await dev.call('POST', 'ssh/sign/mine', { public_key: publicKey, valid_principals: 'alice' });
    assert.equal(root.status, 400);
    const noDefault = await dev.call('POST', 'ssh/sign/mine', { public_key: publicKey });
    assert.equal(noDefault.status, 400);
    assert.match(noDefault.body.errors[0], /could not be rendered/);
    const guest = await dev.ok('POST', 'ssh/sign/mine', { public_key: publicKey, valid_principals: 'guest' });
    assert.match(guest.warnings[0], /lacked identity entity information/);
    const guestListing = await listing(guest.data.signed_key, 'guest');
    assert.doesNotMatch(guestListing, /login@ward/);
    assert.match(guestListing, /\n\s+permit-pty\n/);

    // Without the template flags the braces are literal names.
    await dev.ok('POST', 'ssh/roles/literal', {
      key_type: 'ca',
      allow_user_certificates: true,
      allowed_users: alias,
      default_user: 'nobody',
    });
    const literal = await dev.call(
      'POST',
      'ssh/sign/literal',
      { public_key: publicKey, valid_principals: 'alice' },
      alice,
    );
    assert.equal(literal.status, 400);
  });

  it("signs host certificates under the caller's own domains with allowed_domains_template", async () => {
    await dev.ok('POST', 'ssh/roles/hosts', {
      key_type: 'ca',
      allow_host_certificates: true,
      allowed_domains: `{{identity.entity.aliases.${accessor}.name}}.hosts.example,shared.example`,
      allowed_domains_template: true,
      allow_subdomains: true,
      allow_bare_domains: true,
    });
    const alice = await login('alice');
    const host = await dev.ok(
      'POST',
      'ssh/sign/hosts',
      { public_key: publicKey, cert_type: 'host', valid_principals: 'web.alice.hosts.example,shared.example' },
      alice,
    );
    const text = await listing(host.data.signed_key, 'host');
    assert.match(text, /host certificate/);
    assert.deepEqual(principalsIn(text), ['web.alice.hosts.example', 'shared.example']);
    const other = await dev.call(
      'POST',
      'ssh/sign/hosts',
      { public_key: publicKey, cert_type: 'host', valid_principals: 'web.bob.hosts.example' },
      alice,
    );
    assert.equal(other.status, 400, JSON.stringify(other.body));
  });
});
