import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: hvac's lease tests issue a certificate from a PKI mount with generate_lease. The
// engine's first cut: RSA root, roles, issue (optionally leased), certs, revoke (issue 32 grew it).
// Certificates are checked with Node's own X.509 parser, independent of the issuing code.

describe('PKI engine', () => {
  let t: TestServer;
  let clock: FakeClock;
  let caPem: string;

  before(async () => {
    clock = new FakeClock('2030-01-01T00:00:00Z');
    t = await startTestServer({ clock });
    await t.ok('POST', 'sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '87600h' } });
  });
  after(() => t.stop());

  it('generates a self-signed root whose key stays inside (internal), served as PEM without a token', async () => {
    await t.ok('POST', 'pki/config/urls', {
      issuing_certificates: 'http://127.0.0.1:8200/v1/pki/ca',
      crl_distribution_points: ['http://127.0.0.1:8200/v1/pki/crl'],
    });
    const root = (await t.ok('POST', 'pki/root/generate/internal', { common_name: 'hvac.com', ttl: '8760h' })).data;
    assert.equal(root.private_key, undefined);
    const ca = new X509Certificate(root.certificate);
    assert.equal(ca.subject, 'CN=hvac.com');
    assert.equal(ca.issuer, 'CN=hvac.com');
    assert.ok(ca.ca);
    assert.ok(ca.verify(ca.publicKey), 'self-signed');
    assert.equal(ca.validTo, 'Jan  1 00:00:00 2031 GMT');
    assert.equal(root.serial_number, (ca.serialNumber.match(/../g) ?? []).join(':').toLowerCase());
    assert.equal(root.expiration, Date.parse('2031-01-01T00:00:00Z') / 1000);
    caPem = root.certificate;
    const served = await t.request('GET', 'pki/ca/pem', { token: null });
    assert.equal(served.status, 200);
    assert.equal(String(served.body).trim(), caPem);
    // Issue 32: a second root is another issuer of the mount; the first stays the default.
    const again = await t.ok('POST', 'pki/root/generate/internal', { common_name: 'second root' });
    assert.notEqual(again.data.issuer_id, root.issuer_id);
    assert.equal(String((await t.request('GET', 'pki/ca/pem', { token: null })).body).trim(), caPem);
  });

  it('issues a certificate for an allowed name, signed by the CA, with the names and URLs', async () => {
    await t.ok('POST', 'pki/roles/web', { allowed_domains: 'hvac.com', allow_subdomains: true, max_ttl: '72h' });
    const issued = (
      await t.ok('POST', 'pki/issue/web', {
        common_name: 'test.hvac.com',
        alt_names: 'api.hvac.com',
        ip_sans: '10.0.0.1',
      })
    ).data;
    const cert = new X509Certificate(issued.certificate);
    const ca = new X509Certificate(caPem);
    assert.ok(cert.verify(ca.publicKey), 'signed by the CA');
    assert.ok(cert.checkIssued(ca));
    assert.equal(cert.ca, false);
    assert.equal(cert.subject, 'CN=test.hvac.com');
    assert.equal(cert.subjectAltName, 'DNS:test.hvac.com, DNS:api.hvac.com, IP Address:10.0.0.1');
    assert.match(cert.infoAccess ?? '', /CA Issuers - URI:http:\/\/127\.0\.0\.1:8200\/v1\/pki\/ca/);
    assert.equal(issued.issuing_ca, caPem);
    assert.deepEqual(issued.ca_chain, [caPem]);
    // The mount's default lease TTL (32 days) capped by the role's max_ttl.
    assert.equal(issued.expiration, Date.parse('2030-01-04T00:00:00Z') / 1000);
    const key = createPrivateKey(issued.private_key);
    assert.equal(
      createPublicKey(key).export({ type: 'spki', format: 'pem' }),
      cert.publicKey.export({ type: 'spki', format: 'pem' }),
    );
    const stored = await t.request('GET', `pki/cert/${issued.serial_number}`, { token: null });
    assert.equal(stored.body.data.certificate, issued.certificate);
    assert.equal(stored.body.data.revocation_time, 0);
    const list = (await t.ok('LIST', 'pki/certs')).data.keys;
    assert.ok(list.includes(issued.serial_number));
  });

  it('refuses names outside the role, and a lifetime beyond the CA', async () => {
    for (const body of [
      { common_name: 'hvac.com' }, // bare domain not allowed
      { common_name: 'evil.com' },
      { common_name: 'a.hvac.com', alt_names: 'b.evil.com' },
      { common_name: 'bad_name.hvac.com' },
      { common_name: 'a.hvac.com', ip_sans: 'not-an-ip' },
    ]) {
      const r = await t.request('POST', 'pki/issue/web', { body });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const refused = await t.request('POST', 'pki/issue/web', { body: { common_name: 'evil.com' } });
    assert.deepEqual(refused.body.errors, ['common name evil.com not allowed by this role']);
    await t.ok('POST', 'pki/roles/long', { allowed_domains: 'hvac.com', allow_subdomains: true, max_ttl: '20000h' });
    const tooLong = await t.request('POST', 'pki/issue/long', { body: { common_name: 'a.hvac.com', ttl: '9000h' } });
    assert.equal(tooLong.status, 400);
    assert.equal((await t.request('POST', 'pki/issue/none', { body: { common_name: 'a.hvac.com' } })).status, 400);
  });

  it('with generate_lease, issues under a lease; revoking the lease revokes the certificate', async () => {
    await t.ok('POST', 'pki/roles/leased', {
      allowed_domains: 'hvac.com',
      allow_subdomains: true,
      generate_lease: true,
    });
    const issued = await t.ok('POST', 'pki/issue/leased', { common_name: 'test.hvac.com', ttl: '1h' });
    assert.match(issued.lease_id, /^pki\/issue\/leased\//);
    assert.equal(issued.lease_duration, 3600);
    assert.equal(issued.renewable, false);
    const lease = await t.ok('PUT', 'sys/leases/lookup', { lease_id: issued.lease_id });
    assert.equal(lease.data.id, issued.lease_id);

    clock.advance(5_000);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: issued.lease_id });
    const cert = (await t.ok('GET', `pki/cert/${issued.data.serial_number}`)).data;
    assert.equal(cert.revocation_time, Date.parse('2030-01-01T00:00:05Z') / 1000);
  });

  it('revokes by serial number; no_store certificates are not kept; exported roots answer their key once', async () => {
    const issued = (await t.ok('POST', 'pki/issue/web', { common_name: 'r.hvac.com' })).data;
    const revoked = await t.ok('POST', 'pki/revoke', { serial_number: issued.serial_number });
    assert.ok(revoked.data.revocation_time > 0);
    assert.equal((await t.request('POST', 'pki/revoke', { body: { serial_number: 'zz' } })).status, 400);

    await t.ok('POST', 'pki/roles/ephemeral', { allow_any_name: true, no_store: true });
    const ephemeral = (await t.ok('POST', 'pki/issue/ephemeral', { common_name: 'whatever.example' })).data;
    assert.equal((await t.request('GET', `pki/cert/${ephemeral.serial_number}`)).status, 404);
    const leasedNoStore = await t.request('POST', 'pki/roles/bad', { body: { no_store: true, generate_lease: true } });
    assert.equal(leasedNoStore.status, 400);

    await t.ok('POST', 'sys/mounts/pki2', { type: 'pki' });
    const exported = (await t.ok('POST', 'pki2/root/generate/exported', { common_name: 'Other CA', key_bits: 3072 }))
      .data;
    const key = createPrivateKey(exported.private_key);
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 3072);
    assert.equal((await t.request('POST', 'pki2/root/generate/sideways', { body: { common_name: 'x' } })).status, 400);
  });
});
