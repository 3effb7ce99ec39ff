import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type DevWard, startDevWard } from './ward-process.js';

const run = promisify(execFile);

// Issue 32: a PKI role's allowed_domains_template through bin/ward; openssl reads the issued
// certificates' SANs and makes the CSR that sign/:role is given.

const ROOT = 'pki-template-root';

describe('pki allowed_domains_template through bin/ward', () => {
  let dev: DevWard;
  let dir: string;
  const login = async (user: string) =>
    (await dev.ok('POST', `auth/userpass/login/${user}`, { password: 'pw' })).auth.client_token as string;
  /** The DNS names of a PEM certificate's SAN, as openssl prints them. */
  const sansOf = async (pem: string, name: string) => {
    const path = join(dir, `${name}.pem`);
    await writeFile(path, pem);
    const { stdout } = await run('openssl', ['x509', '-in', path, '-noout', '-ext', 'subjectAltName']);
    return [...stdout.matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1]).sort();
  };

  before(async () => {
    dev = await startDevWard(ROOT);
    dir = await mkdtemp(join(tmpdir(), 'ward-pki-template-'));
    await dev.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    await dev.ok('POST', 'sys/mounts/pki', { type: 'pki' });
    await dev.ok('POST', 'pki/root/generate/internal', { common_name: 'Template Root', key_type: 'ec' });
    await dev.ok('PUT', 'sys/policies/acl/issuer', {
      policy: 'path "pki/issue/*" { capabilities = ["update"] }\npath "pki/sign/*" { capabilities = ["update"] }',
    });
    for (const user of ['alice', 'bob'])
      await dev.ok('POST', `auth/userpass/users/${user}`, { password: 'pw', token_policies: 'issuer' });
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("issues and signs for the caller's own domains only; openssl reads the SANs", async () => {
    const accessor = (await dev.ok('GET', 'sys/auth')).data['userpass/'].accessor;
    await dev.ok('POST', 'pki/roles/mine', {
      allowed_domains: [
        `{{identity.entity.aliases.${accessor}.name}}.users.example`,
        '{{identity.groups.names.web.metadata.zone}}.zones.example',
        '{{identity.entity.metadata.extra}}',
      ].join(','),
      allowed_domains_template: true,
      allow_bare_domains: true,
      allow_subdomains: true,
      allow_glob_domains: true,
      key_type: 'ec',
      ttl: '1h',
    });
    const alice = await login('alice');
    const issued = await dev.ok(
      'POST',
      'pki/issue/mine',
      { common_name: 'alice.users.example', alt_names: 'www.alice.users.example' },
      alice,
    );
    assert.deepEqual(await sansOf(issued.data.certificate, 'issued'), [
      'alice.users.example',
      'www.alice.users.example',
    ]);

    // sign/:role with a CSR openssl makes; a group's metadata fills once alice is in the group.
    const key = join(dir, 'csr.key');
    const csr = join(dir, 'csr.pem');
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      csr,
      '-subj',
      '/CN=api.alice.users.example',
      '-addext',
      'subjectAltName=DNS:api.alice.users.example,DNS:eu.zones.example',
    ]);
    const csrPem = await readFile(csr, 'utf8');
    const sign = (token: string) =>
      dev.call('POST', 'pki/sign/mine', { csr: csrPem, common_name: 'api.alice.users.example' }, token);
    assert.equal((await sign(alice)).status, 400);
    const entityId = (await dev.ok('GET', 'auth/token/lookup-self', undefined, alice)).data.entity_id;
    await dev.ok('POST', 'identity/group', { name: 'web', member_entity_ids: [entityId], metadata: { zone: 'eu' } });
    const signed = await sign(alice);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.deepEqual(await sansOf(signed.body.data.certificate, 'signed'), [
      'api.alice.users.example',
      'eu.zones.example',
    ]);

    // Bob cannot have alice's names, by issue or by sign.
    const bob = await login('bob');
    const refused = await dev.call('POST', 'pki/issue/mine', { common_name: 'alice.users.example' }, bob);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal((await sign(bob)).status, 400);
    await dev.ok('POST', 'pki/issue/mine', { common_name: 'bob.users.example' }, bob);

    // A filled `*` is not a glob (the role allows globs, but not from identity data).
    await dev.ok('POST', `identity/entity/id/${entityId}`, { metadata: { extra: '*.example' } });
    const glob = await dev.call('POST', 'pki/issue/mine', { common_name: 'anything.example' }, alice);
    assert.equal(glob.status, 400, JSON.stringify(glob.body));
  });
});
