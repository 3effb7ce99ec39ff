import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as acme from 'acme-client';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { dns01Through, leafOf } from './acme-testing.js';
import { FakeDnsServer } from './fakes/dns-server.js';

// Issue 32: the established per-role and per-issuer ACME directories (roles/:role/acme/,
// issuer/:ref/acme/, issuer/:ref/roles/:role/acme/) and config/acme's allowed_roles,
// allowed_issuers, allow_role_ext_key_usage and default_directory_policy, through acme-client
// (dns-01 against a DNS server on a loopback UDP port) and openssl verify.

describe('PKI ACME directories per role and per issuer', () => {
  let t: TestServer;
  const dns = new FakeDnsServer();
  const dir = mkdtempSync(join(tmpdir(), 'ward-acme-dirs-'));
  const roots = new Map<string, string>();

  const ok = async (path: string, body?: unknown) => (await t.ok('POST', path, body))?.data;
  const configure = (body: Record<string, unknown>) => t.request('POST', 'pki/config/acme', { body });
  const directoryUrl = (prefix: string) => `${t.url}/v1/pki/${prefix}/directory`;

  before(async () => {
    const resolver = await dns.start();
    t = await startTestServer();
    await ok('sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    // root-a lives a year, root-b the mount's default TTL (32 days).
    for (const [name, ttl] of [
      ['root-a', '8760h'],
      ['root-b', ''],
    ] as const)
      roots.set(
        name,
        (
          await ok('pki/issuers/generate/root/internal', {
            common_name: name,
            issuer_name: name,
            key_type: 'ec',
            ...(ttl ? { ttl } : {}),
          })
        ).certificate,
      );
    await ok('pki/config/issuers', { default: 'root-a' });
    await ok('pki/roles/web', {
      allowed_domains: 'example.test',
      allow_subdomains: true,
      issuer_ref: 'root-b',
      ttl: '4800h',
    });
    await ok('pki/roles/nostore', { allow_any_name: true, no_store: true });
    await ok('pki/config/cluster', { path: `${t.url}/v1/pki` });
    await ok('pki/config/acme', { enabled: true, dns_resolver: resolver });
  });
  after(async () => {
    await t.stop();
    await dns.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A certificate for `names` from the directory at `prefix`, its challenges answered in DNS. */
  const issue = async (prefix: string, names: string[], accountKey?: Buffer) => {
    const client = new acme.Client({
      directoryUrl: directoryUrl(prefix),
      accountKey: accountKey ?? (await acme.crypto.createPrivateEcdsaKey()),
    });
    const [, csr] = await acme.crypto.createCsr({ commonName: names[0], altNames: names });
    return leafOf(await client.auto({ csr, ...dns01Through(dns) }));
  };
  /** Whether openssl verify accepts `leaf` under the root issuer `root`. */
  const verifiesUnder = (leaf: string, root: string) => {
    writeFileSync(join(dir, 'root.pem'), roots.get(root) ?? '');
    writeFileSync(join(dir, 'leaf.pem'), leaf);
    const out = spawnSync('openssl', ['verify', '-CAfile', join(dir, 'root.pem'), join(dir, 'leaf.pem')], {
      encoding: 'utf8',
    });
    return /leaf\.pem: OK/.test(out.stdout);
  };
  const extendedKeyUsage = (leaf: string) => {
    writeFileSync(join(dir, 'eku.pem'), leaf);
    return spawnSync('openssl', ['x509', '-noout', '-ext', 'extendedKeyUsage', '-in', join(dir, 'eku.pem')], {
      encoding: 'utf8',
    }).stdout;
  };

  it("builds each directory's URLs on its own prefix, without a token", async () => {
    for (const prefix of ['acme', 'roles/web/acme', 'issuer/root-b/acme', 'issuer/root-a/roles/web/acme']) {
      const r = await t.request('GET', `pki/${prefix}/directory`, { token: null });
      assert.equal(r.status, 200, `${prefix}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.newOrder, `${t.url}/v1/pki/${prefix}/new-order`);
      assert.equal(r.body.newNonce, `${t.url}/v1/pki/${prefix}/new-nonce`);
    }
  });

  it("issues through a role's directory with the role's issuer, names and server-only usage", async () => {
    const leaf = await issue('roles/web/acme', ['www.example.test']);
    assert.ok(verifiesUnder(leaf, 'root-b'), "signed by the role's issuer_ref");
    assert.ok(!verifiesUnder(leaf, 'root-a'));
    // As established, an ACME certificate that would outlive its issuer is cut to it.
    assert.equal(new X509Certificate(leaf).validTo, new X509Certificate(roots.get('root-b') ?? '').validTo);
    const eku = extendedKeyUsage(leaf);
    assert.match(eku, /TLS Web Server Authentication/);
    assert.doesNotMatch(eku, /Client Authentication/, 'allow_role_ext_key_usage is off');
    const client = new acme.Client({
      directoryUrl: directoryUrl('roles/web/acme'),
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
    await client.createAccount({ termsOfServiceAgreed: true });
    await assert.rejects(
      client.createOrder({ identifiers: [{ type: 'dns', value: 'www.other.test' }] }),
      /role \(web\) will not issue certificate for name www\.other\.test/,
    );
    await ok('pki/roles/no-ip', { allowed_domains: 'example.test', allow_subdomains: true, allow_ip_sans: false });
    const noIp = new acme.Client({
      directoryUrl: directoryUrl('roles/no-ip/acme'),
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
    await noIp.createAccount({ termsOfServiceAgreed: true });
    await assert.rejects(
      noIp.createOrder({ identifiers: [{ type: 'ip', value: '192.0.2.7' }] }),
      /role \(no-ip\) does not allow IP sans, so cannot issue certificate for 192\.0\.2\.7/,
    );
  });

  it("signs with the path's issuer over the role's, and sign-verbatim per issuer takes any name", async () => {
    const api = await issue('issuer/root-a/roles/web/acme', ['api.example.test']);
    assert.ok(verifiesUnder(api, 'root-a'));
    // The role's 200 days are cut to the established 90 for ACME.
    const days = (Date.parse(new X509Certificate(api).validTo) - Date.now()) / 86_400_000;
    assert.ok(days > 89 && days <= 90, `${days} days`);
    assert.ok(verifiesUnder(await issue('issuer/root-b/acme', ['anything.test']), 'root-b'));
    assert.ok(verifiesUnder(await issue('acme', ['default.test']), 'root-a'), 'the default issuer');
  });

  it('keeps an account in the directory it was made in', async () => {
    const key = await acme.crypto.createPrivateEcdsaKey();
    const home = new acme.Client({ directoryUrl: directoryUrl('acme'), accountKey: key });
    await home.createAccount({ termsOfServiceAgreed: true });
    const away = new acme.Client({ directoryUrl: directoryUrl('roles/web/acme'), accountKey: key });
    await assert.rejects(
      away.createAccount({ termsOfServiceAgreed: true }),
      /account part of different ACME directory path/,
    );
  });

  it('binds an EAB key to the directory it was made for', async () => {
    assert.equal((await configure({ eab_policy: 'new-account-required' })).status, 200);
    try {
      const eab = await ok('pki/roles/web/acme/new-eab');
      assert.equal(eab.acme_directory, 'roles/web/acme/directory');
      const listed = (await t.request('LIST', 'pki/eab')).body.data;
      assert.equal(listed.key_info[eab.id].acme_directory, 'roles/web/acme/directory');
      const externalAccountBinding = { kid: eab.id, hmacKey: eab.key };
      const elsewhere = new acme.Client({
        directoryUrl: directoryUrl('acme'),
        accountKey: await acme.crypto.createPrivateEcdsaKey(),
        externalAccountBinding,
      });
      await assert.rejects(elsewhere.createAccount({ termsOfServiceAgreed: true }), /failed to verify eab/);
      const there = new acme.Client({
        directoryUrl: directoryUrl('roles/web/acme'),
        accountKey: await acme.crypto.createPrivateEcdsaKey(),
        externalAccountBinding,
      });
      await there.createAccount({ termsOfServiceAgreed: true });
    } finally {
      await configure({ eab_policy: 'not-required' });
    }
  });

  it('applies allowed_roles, allowed_issuers, default_directory_policy and allow_role_ext_key_usage', async () => {
    const problem = async (prefix: string) => {
      const r = await t.request('GET', `pki/${prefix}/directory`, { token: null });
      return `${r.status} ${r.body?.detail}`;
    };
    assert.equal((await configure({ allowed_roles: 'nostore' })).status, 400, 'a no_store role cannot serve ACME');
    assert.match(await problem('roles/nostore/acme'), /^500 role can not be used as NoStore is set to true/);
    assert.match(await problem('roles/missing/acme'), /^400 role does not exist/);

    await ok('pki/roles/other', { allow_any_name: true });
    assert.equal((await configure({ allowed_roles: 'other' })).status, 200);
    assert.match(await problem('roles/web/acme'), /^500 specified role not allowed by ACME policy/);
    assert.match(await problem('roles/other/acme'), /^200/);
    const refused = await configure({ default_directory_policy: 'role:web' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0], /default directory policy role:web was not specified in allowed_roles/);
    assert.equal((await configure({ allowed_roles: '*', default_directory_policy: 'role:web' })).status, 200);
    // The default directory now issues under the role: its names, its issuer.
    assert.ok(verifiesUnder(await issue('acme', ['mail.example.test']), 'root-b'));

    assert.equal((await configure({ default_directory_policy: 'forbid' })).status, 200);
    assert.match(await problem('acme'), /^500 default directory not allowed by ACME policy/);
    assert.match(await problem('issuer/root-a/acme'), /^500 default directory not allowed by ACME policy/);
    assert.match(await problem('roles/web/acme'), /^200/);

    assert.equal((await configure({ allowed_issuers: 'root-a' })).status, 200);
    assert.match(await problem('roles/web/acme'), /^500 specified issuer not allowed by ACME policy/);
    assert.match(await problem('issuer/root-a/roles/web/acme'), /^200/);
    assert.equal((await configure({ allowed_issuers: 'no-such-issuer' })).status, 400);

    assert.equal((await configure({ allowed_issuers: '*', allow_role_ext_key_usage: true })).status, 200);
    const both = extendedKeyUsage(await issue('roles/web/acme', ['both.example.test']));
    assert.match(both, /TLS Web Server Authentication, TLS Web Client Authentication/);
    const read = (await t.request('GET', 'pki/config/acme')).body.data;
    assert.deepEqual(
      [read.allowed_roles, read.allowed_issuers, read.allow_role_ext_key_usage, read.default_directory_policy],
      [['*'], ['*'], true, 'forbid'],
    );
  });
});
