import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as acme from 'acme-client';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { assertVerifiesUnderRoot, leafOf, runValidationRetries } from './acme-testing.js';
import { FakeDnsServer } from './fakes/dns-server.js';

// Issue 32: ACME dns-01 (RFC 8555 8.4) and wildcard identifiers, with the real acme-client against
// a real DNS server on a loopback UDP port, named by config/acme dns_resolver.

describe('PKI ACME dns-01 with acme-client and a DNS server', () => {
  let t: TestServer;
  // openssl checks validity at the server's (fake) time, which the validation retries move on.
  const dns = new FakeDnsServer();
  let resolver: string;
  const dir = mkdtempSync(join(tmpdir(), 'ward-acme-dns-'));
  let rootPem: string;

  before(async () => {
    resolver = await dns.start();
    t = await startTestServer();
    const ok = async (path: string, body?: unknown) => (await t.ok('POST', path, body))?.data;
    await ok('sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    rootPem = (await ok('pki/root/generate/internal', { common_name: 'DNS Root', ttl: '8760h', key_type: 'ec' }))
      .certificate;
    await ok('pki/config/cluster', { path: `${t.url}/v1/pki` });
    const config = await ok('pki/config/acme', { enabled: true, dns_resolver: resolver });
    assert.equal(config.dns_resolver, resolver);
  });
  after(async () => {
    await t.stop();
    await dns.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = async () =>
    new acme.Client({
      directoryUrl: `${t.url}/v1/pki/acme/directory`,
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });

  it('issues a wildcard certificate through dns-01 TXT records, which openssl verify accepts', async () => {
    const [, csr] = await acme.crypto.createCsr({
      commonName: '*.example.test',
      altNames: ['*.example.test', 'example.test'],
    });
    const chain = await (await client()).auto({
      csr,
      termsOfServiceAgreed: true,
      challengePriority: ['dns-01'],
      // The client would check the record through the system resolver, which does not know it.
      skipChallengeVerification: true,
      challengeCreateFn: async (authz, challenge, keyAuthorization) => {
        assert.equal(challenge.type, 'dns-01');
        dns.addTxt(`_acme-challenge.${authz.identifier.value}`, keyAuthorization);
      },
      challengeRemoveFn: async (authz, _challenge, keyAuthorization) => {
        dns.removeTxt(`_acme-challenge.${authz.identifier.value}`, keyAuthorization);
      },
    });
    assert.ok(dns.asked.includes('TXT _acme-challenge.example.test'), dns.asked.join(', '));
    const leaf = leafOf(chain);
    assertVerifiesUnderRoot(t, dir, rootPem, leaf);
    assert.deepEqual(acme.crypto.readCertificateInfo(leaf).domains.altNames.sort(), ['*.example.test', 'example.test']);
  });

  it('offers only dns-01 for a wildcard, and fails the authorization when the TXT record is wrong', async () => {
    const c = await client();
    await c.createAccount({ termsOfServiceAgreed: true });
    const order = await c.createOrder({
      identifiers: [
        { type: 'dns', value: '*.wrong.test' },
        { type: 'dns', value: 'plain.test' },
      ],
    });
    assert.deepEqual(order.identifiers, [
      { type: 'dns', value: '*.wrong.test' },
      { type: 'dns', value: 'plain.test' },
    ]);
    const [wild, plain] = await c.getAuthorizations(order);
    assert.ok(wild && plain);
    // RFC 8555 7.1.4: the authorization names the domain without "*." and says it is a wildcard.
    assert.deepEqual(wild.identifier, { type: 'dns', value: 'wrong.test' });
    assert.equal(wild.wildcard, true);
    assert.deepEqual(
      wild.challenges.map((ch) => ch.type),
      ['dns-01'],
    );
    assert.deepEqual(plain.challenges.map((ch) => ch.type).sort(), ['dns-01', 'http-01', 'tls-alpn-01']);
    dns.addTxt('_acme-challenge.wrong.test', 'not-the-digest');
    const challenge = wild.challenges[0];
    assert.ok(challenge);
    const answered = await c.completeChallenge(challenge);
    assert.equal(answered.status, 'processing', 'retried later, as established');
    assert.match(JSON.stringify(answered.error), /incorrectResponse.*challenge failed against 1 records/);
    // The record shows up late (DNS propagation): the retry 5 s on finds it.
    dns.addTxt('_acme-challenge.wrong.test', await c.getChallengeKeyAuthorization(challenge));
    await runValidationRetries(t, 1);
    const [wildNow] = await c.getAuthorizations(order);
    assert.equal(wildNow?.status, 'valid');
    assert.equal(wildNow?.challenges[0]?.status, 'valid');
    const nothing = plain.challenges.find((ch) => ch.type === 'dns-01');
    const other = plain.challenges.find((ch) => ch.type === 'http-01');
    assert.ok(nothing && other);
    const missing = await c.completeChallenge(nothing);
    assert.equal(missing.status, 'processing', 'no TXT record at all');
    await assert.rejects(c.completeChallenge(other), /only a single challenge within an authorization can be accepted/);
    await runValidationRetries(t);
    assert.equal((await c.getOrder(order)).status, 'invalid');
    const dated = await c
      .createOrder({ identifiers: [{ type: 'dns', value: 'plain.test' }], notAfter: '2099-01-01T00:00:00Z' })
      .catch((e: Error) => e);
    assert.ok(dated instanceof Error && /NotBefore and NotAfter are not supported/.test(dated.message), String(dated));
  });

  it("lists an account's orders, and an order whose authorization is deactivated leaves the list", async () => {
    const c = await client();
    const account = (await c.createAccount({ termsOfServiceAgreed: true })) as { orders?: string };
    assert.equal(account.orders, `${c.getAccountUrl()}/orders`);
    const kept = await c.createOrder({ identifiers: [{ type: 'dns', value: 'kept.test' }] });
    const dropped = await c.createOrder({ identifiers: [{ type: 'dns', value: 'dropped.test' }] });
    // acme-client's types leave out its signed-request helper, which POSTs-as-GET.
    const { api } = c as unknown as {
      api: { apiRequest(url: string, payload: null, codes: number[]): Promise<{ data: { orders: string[] } }> };
    };
    const list = async (url: string) => (await api.apiRequest(url, null, [200])).data.orders.sort();
    const both = [kept.url, dropped.url].sort();
    assert.deepEqual(await list(account.orders ?? ''), both);
    assert.deepEqual(await list(`${t.url}/v1/pki/acme/orders`), both, 'the established path');
    const [authz] = await c.getAuthorizations(dropped);
    assert.ok(authz);
    const deactivated = await c.deactivateAuthorization(authz);
    assert.equal(deactivated.status, 'deactivated');
    assert.ok(deactivated.challenges.every((ch) => ch.status === 'invalid'));
    assert.equal((await c.getOrder(dropped)).status, 'invalid');
    assert.deepEqual(await list(account.orders ?? ''), [kept.url]);
    await assert.rejects(
      c.deactivateAuthorization(authz),
      /unable to deactivate authorization in 'deactivated' status/,
    );
  });

  it('lets an operator list, read, revoke and restore ACME accounts (acme/mgmt/account/keyid)', async () => {
    const c = await client();
    await c.createAccount({ termsOfServiceAgreed: true, contact: ['mailto:ops@example.test'] });
    await c.createOrder({ identifiers: [{ type: 'dns', value: 'mgmt.test' }] });
    const keyid = c.getAccountUrl().split('/').pop() ?? '';
    assert.equal((await t.request('LIST', 'pki/acme/mgmt/account/keyid', { token: null })).status, 403);
    const listed = await t.request('LIST', 'pki/acme/mgmt/account/keyid');
    assert.ok(listed.body.data.keys.includes(keyid), JSON.stringify(listed.body));
    const read = (await t.request('GET', `pki/acme/mgmt/account/keyid/${keyid}`)).body.data;
    assert.equal(read.status, 'valid');
    assert.equal(read.directory, 'acme/');
    assert.deepEqual(read.contacts, ['mailto:ops@example.test']);
    assert.deepEqual(
      read.orders.map((o: { identifiers: string[]; status: string }) => [o.identifiers, o.status]),
      [[['mgmt.test'], 'pending']],
    );
    const revoked = await t.request('POST', `pki/acme/mgmt/account/keyid/${keyid}`, { body: { status: 'revoked' } });
    assert.equal(revoked.body.data.status, 'revoked');
    assert.ok(revoked.body.data.revoked_time);
    await assert.rejects(
      c.createOrder({ identifiers: [{ type: 'dns', value: 'mgmt.test' }] }),
      /account in status: revoked/,
    );
    await t.request('POST', `pki/acme/mgmt/account/keyid/${keyid}`, { body: { status: 'valid' } });
    await c.createOrder({ identifiers: [{ type: 'dns', value: 'mgmt.test' }] });
    const bad = await t.request('POST', `pki/acme/mgmt/account/keyid/${keyid}`, { body: { status: 'deactivated' } });
    assert.equal(bad.status, 400);
    assert.equal((await t.request('GET', 'pki/acme/mgmt/account/keyid/no-such-id')).status, 404);
  });

  it('refuses a dns_resolver that is not an IP address and port', async () => {
    for (const bad of ['dns.example:53', '127.0.0.1', ':53']) {
      const r = await t.request('POST', 'pki/config/acme', { body: { dns_resolver: bad } });
      assert.equal(r.status, 400, `${bad}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.errors.join(' '), /failed to parse DNS resolver address/);
    }
    const v6 = await t.request('POST', 'pki/config/acme', { body: { dns_resolver: '[::1]:53' } });
    assert.equal(v6.status, 200, JSON.stringify(v6.body));
    await t.request('POST', 'pki/config/acme', { body: { dns_resolver: resolver } });
  });
});
