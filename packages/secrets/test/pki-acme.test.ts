import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as acme from 'acme-client';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { assertVerifiesUnderRoot, leafOf, runValidationRetries } from './acme-testing.js';
import { FakeDnsServer } from './fakes/dns-server.js';

// Issue 32: a real ACME client (acme-client) obtains a certificate from Ward's ACME directory with
// HTTP-01, answered by a local responder on port 80 (where RFC 8555 8.3 says the server looks).

describe('PKI ACME with acme-client and HTTP-01', () => {
  let t: TestServer;
  // openssl checks validity at the server's (fake) time, which the validation retries move on.
  let responder: Server;
  const tokens = new Map<string, string>();
  const hosts: string[] = [];
  const dns = new FakeDnsServer();
  let resolver: string;
  const dir = mkdtempSync(join(tmpdir(), 'ward-acme-'));
  let rootPem: string;

  before(async () => {
    responder = createServer((req, res) => {
      const token = req.url?.split('/.well-known/acme-challenge/')[1] ?? '';
      hosts.push(req.headers.host ?? '');
      if (req.headers.host === 'redirect.test') {
        res.writeHead(302, { Location: `http://web.test${req.url}` }).end();
        return;
      }
      const answer = tokens.get(token);
      res.writeHead(answer ? 200 : 404, { 'Content-Type': 'text/plain' }).end(answer ?? 'no such token');
    });
    await new Promise<void>((resolve, reject) => {
      responder.once('error', reject);
      responder.listen({ port: 80, host: '::' }, resolve);
    });
    resolver = await dns.start();
    dns.setA('web.test', '127.0.0.1');
    dns.setA('redirect.test', '127.0.0.1');
    t = await startTestServer();
    const ok = async (path: string, body?: unknown) => (await t.ok('POST', path, body))?.data;
    await ok('sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    rootPem = (await ok('pki/root/generate/internal', { common_name: 'ACME Root', ttl: '8760h', key_type: 'ec' }))
      .certificate;
    await ok('pki/config/cluster', { path: `${t.url}/v1/pki` });
    await ok('pki/config/acme', { enabled: true });
  });
  after(async () => {
    await t.stop();
    await new Promise((resolve) => responder.close(resolve));
    await dns.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('issues a certificate for localhost through the whole ACME flow, which openssl verify accepts', async () => {
    const client = new acme.Client({
      directoryUrl: `${t.url}/v1/pki/acme/directory`,
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
    const [, csr] = await acme.crypto.createCsr({ commonName: 'localhost', altNames: ['localhost'] });
    const chain = await client.auto({
      csr,
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        tokens.set(challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        tokens.delete(challenge.token);
      },
    });
    const leaf = leafOf(chain);
    assertVerifiesUnderRoot(t, dir, rootPem, leaf);
    const info = acme.crypto.readCertificateInfo(leaf);
    assert.deepEqual(info.domains.altNames, ['localhost']);

    await client.revokeCertificate(leaf);
    const serial = new X509Certificate(leaf).serialNumber.toLowerCase().match(/../g)?.join(':');
    const stored = await t.request('GET', `pki/cert/${serial}`, { token: null });
    assert.ok(stored.body.data.revocation_time > 0, 'revoked through ACME');
    await assert.rejects(client.revokeCertificate(leaf), /already revoked/i);
    const stranger = new acme.Client({
      directoryUrl: `${t.url}/v1/pki/acme/directory`,
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
    await stranger.createAccount({ termsOfServiceAgreed: true });
    await assert.rejects(stranger.revokeCertificate(leaf), 'another account may not revoke it');
  });

  it('marks an authorization invalid when the responder does not know the token', async () => {
    const oldKey = await acme.crypto.createPrivateRsaKey(2048);
    const client = new acme.Client({ directoryUrl: `${t.url}/v1/pki/acme/directory`, accountKey: oldKey });
    await client.createAccount({ termsOfServiceAgreed: true });
    const order = await client.createOrder({ identifiers: [{ type: 'dns', value: 'localhost' }] });
    const [authz] = await client.getAuthorizations(order);
    const challenge = authz?.challenges.find((c) => c.type === 'http-01');
    assert.ok(authz && challenge);
    const answered = await client.completeChallenge(challenge);
    // As established, a failed try is retried: the challenge is processing, with the error.
    assert.equal(answered.status, 'processing');
    assert.match(JSON.stringify(answered.error), /the challenge answered HTTP 404/);
    await runValidationRetries(t);
    const [failed] = await client.getAuthorizations(order);
    assert.equal(failed?.status, 'invalid');
    assert.equal(failed?.challenges.find((c) => c.type === 'http-01')?.status, 'invalid');
    // RFC 8555 7.3.5: the account moves to a new key; the old one no longer signs for it.
    const newKey = await acme.crypto.createPrivateEcdsaKey();
    await client.updateAccountKey(newKey);
    const reborn = new acme.Client({ directoryUrl: `${t.url}/v1/pki/acme/directory`, accountKey: newKey });
    await reborn.createAccount({ onlyReturnExisting: true });
    assert.equal(reborn.getAccountUrl(), client.getAccountUrl(), 'the same account, found by its new key');
    const stale = new acme.Client({ directoryUrl: `${t.url}/v1/pki/acme/directory`, accountKey: oldKey });
    await assert.rejects(stale.createAccount({ onlyReturnExisting: true }), /no account for this key/);
    const nested = await reborn
      .createOrder({ identifiers: [{ type: 'dns', value: '*.*.example.com' }] })
      .catch((e: Error) => e);
    assert.ok(nested instanceof Error && /not a valid DNS name/.test(nested.message), String(nested));
  });

  it('issues for an IP identifier (RFC 8738) validated by http-01 alone', async () => {
    const client = new acme.Client({
      directoryUrl: `${t.url}/v1/pki/acme/directory`,
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
    await client.createAccount({ termsOfServiceAgreed: true });
    // acme-client's auto() names every identifier dns; the steps are taken one by one here.
    const order = await client.createOrder({ identifiers: [{ type: 'ip', value: '127.0.0.1' }] });
    const [authz] = await client.getAuthorizations(order);
    assert.ok(authz);
    assert.deepEqual(authz.identifier, { type: 'ip', value: '127.0.0.1' });
    assert.deepEqual(
      authz.challenges.map((c) => c.type),
      ['http-01'],
    );
    const challenge = authz.challenges[0];
    assert.ok(challenge);
    tokens.set(challenge.token, await client.getChallengeKeyAuthorization(challenge));
    assert.equal((await client.completeChallenge(challenge)).status, 'valid');
    assert.ok(hosts.includes('127.0.0.1'), 'fetched from the address itself');
    const [, csr] = await acme.crypto.createCsr({ altNames: ['127.0.0.1'] });
    const finalized = await client.finalizeOrder(order, csr);
    const leaf = (await client.getCertificate(finalized)).split(/(?=-----BEGIN CERTIFICATE-----)/)[0] ?? '';
    assertVerifiesUnderRoot(t, dir, rootPem, leaf, 'ip');
    const text = spawnSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName', '-in', join(dir, 'ip.pem')], {
      encoding: 'utf8',
    }).stdout;
    assert.match(text, /IP Address:127\.0\.0\.1/);
    const asDns = await client
      .createOrder({ identifiers: [{ type: 'dns', value: '127.0.0.1' }] })
      .catch((e: Error) => e);
    assert.ok(asDns instanceof Error && /DNS identifier is an IP address/.test(asDns.message), String(asDns));
  });

  it('finds http-01 names through dns_resolver and follows redirects', async () => {
    assert.equal((await t.request('POST', 'pki/config/acme', { body: { dns_resolver: resolver } })).status, 200);
    try {
      const client = new acme.Client({
        directoryUrl: `${t.url}/v1/pki/acme/directory`,
        accountKey: await acme.crypto.createPrivateEcdsaKey(),
      });
      const [, csr] = await acme.crypto.createCsr({ commonName: 'redirect.test' });
      await client.auto({
        csr,
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        skipChallengeVerification: true,
        challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
          tokens.set(challenge.token, keyAuthorization);
        },
        challengeRemoveFn: async (_authz, challenge) => {
          tokens.delete(challenge.token);
        },
      });
      assert.ok(dns.asked.includes('A redirect.test') && dns.asked.includes('A web.test'), dns.asked.join(', '));
      assert.ok(hosts.includes('redirect.test') && hosts.includes('web.test'), hosts.join(', '));
    } finally {
      await t.request('POST', 'pki/config/acme', { body: { dns_resolver: '' } });
    }
  });

  it('requires an external account binding once eab_policy says so, and uses each key once', async () => {
    const directoryUrl = `${t.url}/v1/pki/acme/directory`;
    const before = new acme.Client({ directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() });
    await before.createAccount({ termsOfServiceAgreed: true });
    const set = await t.request('POST', 'pki/config/acme', { body: { eab_policy: 'always-required' } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    try {
      // As established, always-required stops the accounts made without a binding too.
      await assert.rejects(
        before.createOrder({ identifiers: [{ type: 'dns', value: 'localhost' }] }),
        /has no external account binding, which is required/,
      );
      const unbound = new acme.Client({ directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() });
      await assert.rejects(
        unbound.createAccount({ termsOfServiceAgreed: true }),
        /external account binding is required/,
      );
      assert.equal(
        (await t.request('POST', 'pki/acme/new-eab', { token: null })).status,
        403,
        'minting a binding needs a token',
      );
      const eab = (await t.request('POST', 'pki/acme/new-eab')).body.data;
      const externalAccountBinding = { kid: eab.id, hmacKey: eab.key };
      const bound = new acme.Client({
        directoryUrl,
        accountKey: await acme.crypto.createPrivateEcdsaKey(),
        externalAccountBinding,
      });
      await bound.createAccount({ termsOfServiceAgreed: true });
      await bound.createOrder({ identifiers: [{ type: 'dns', value: 'localhost' }] });
      const reused = new acme.Client({
        directoryUrl,
        accountKey: await acme.crypto.createPrivateEcdsaKey(),
        externalAccountBinding,
      });
      await assert.rejects(reused.createAccount({ termsOfServiceAgreed: true }), 'an EAB key binds one account');
      assert.equal(
        (await t.request('POST', 'pki/config/acme', { body: { eab_policy: 'new-account-required' } })).status,
        200,
      );
      await before.createOrder({ identifiers: [{ type: 'dns', value: 'localhost' }] });
    } finally {
      await t.request('POST', 'pki/config/acme', { body: { eab_policy: 'not-required' } });
    }
  });
});
