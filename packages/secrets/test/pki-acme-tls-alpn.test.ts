import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSecureContext, createServer, type SecureContext, type Server } from 'node:tls';
import * as acme from 'acme-client';
import { createPkiBackend } from '../src/engines/pki/backend.js';
import { startTestServer, type TestServer, withBackends } from '../src/server/testing.js';
import { assertVerifiesUnderRoot, leafOf, runValidationRetries } from './acme-testing.js';
import { FakeDnsServer } from './fakes/dns-server.js';

// Issue 32: ACME tls-alpn-01 (RFC 8737) with the real acme-client: its validation certificate is
// served by a real TLS server negotiating acme-tls/1 on a loopback port (the engine is built with
// that port instead of 443, a test-only option), found through config/acme dns_resolver.

describe('PKI ACME tls-alpn-01 with acme-client and a TLS responder', () => {
  let t: TestServer;
  // openssl checks validity at the server's (fake) time, which the validation retries move on.
  let responder: Server;
  const contexts = new Map<string, SecureContext>();
  const dns = new FakeDnsServer();
  const dir = mkdtempSync(join(tmpdir(), 'ward-acme-alpn-'));
  let rootPem: string;
  let directoryUrl: string;

  before(async () => {
    responder = createServer({
      ALPNProtocols: ['acme-tls/1'],
      SNICallback: (name, cb) => cb(null, contexts.get(name.toLowerCase())),
    });
    await new Promise<void>((resolve) => responder.listen(0, '127.0.0.1', resolve));
    const port = (responder.address() as AddressInfo).port;
    const resolver = await dns.start();
    dns.setA('alpn.test', '127.0.0.1');
    dns.setA('stale.test', '127.0.0.1');
    t = await startTestServer({
      catalog: withBackends({ pki: (ctx) => createPkiBackend(ctx, { acmeTlsAlpnPort: port }) }),
    });
    const ok = async (path: string, body?: unknown) => (await t.ok('POST', path, body))?.data;
    await ok('sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    rootPem = (await ok('pki/root/generate/internal', { common_name: 'ALPN Root', ttl: '8760h', key_type: 'ec' }))
      .certificate;
    await ok('pki/config/cluster', { path: `${t.url}/v1/pki` });
    await ok('pki/config/acme', { enabled: true, dns_resolver: resolver });
    directoryUrl = `${t.url}/v1/pki/acme/directory`;
  });
  after(async () => {
    await t.stop();
    await new Promise((resolve) => responder.close(resolve));
    await dns.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('issues a certificate once the acme-tls/1 handshake shows the key authorization', async () => {
    const client = new acme.Client({ directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() });
    const [, csr] = await acme.crypto.createCsr({ commonName: 'alpn.test', altNames: ['alpn.test'] });
    const chain = await client.auto({
      csr,
      termsOfServiceAgreed: true,
      challengePriority: ['tls-alpn-01'],
      // The client would connect to port 443 itself; the server's validation is what is tested.
      skipChallengeVerification: true,
      challengeCreateFn: async (authz, challenge, keyAuthorization) => {
        assert.equal(challenge.type, 'tls-alpn-01');
        const [key, cert] = await acme.crypto.createAlpnCertificate(authz, keyAuthorization);
        contexts.set(authz.identifier.value, createSecureContext({ key, cert }));
      },
      challengeRemoveFn: async (authz) => {
        contexts.delete(authz.identifier.value);
      },
    });
    assert.ok(dns.asked.includes('A alpn.test'), 'the host was found through dns_resolver');
    const leaf = leafOf(chain);
    assertVerifiesUnderRoot(t, dir, rootPem, leaf);
  });

  it('fails the challenge when the certificate holds another key authorization', async () => {
    const client = new acme.Client({ directoryUrl, accountKey: await acme.crypto.createPrivateEcdsaKey() });
    await client.createAccount({ termsOfServiceAgreed: true });
    const order = await client.createOrder({ identifiers: [{ type: 'dns', value: 'stale.test' }] });
    const [authz] = await client.getAuthorizations(order);
    // acme-client's types name http-01 and dns-01 only; its objects are the server's own.
    const challenge = authz?.challenges.find((c) => String(c.type) === 'tls-alpn-01');
    assert.ok(authz && challenge);
    const [key, cert] = await acme.crypto.createAlpnCertificate(authz, `${challenge.token}.not-this-account`);
    contexts.set('stale.test', createSecureContext({ key, cert }));
    const answered = await client.completeChallenge(challenge);
    assert.equal(answered.status, 'processing', 'retried later, as established');
    assert.match(JSON.stringify(answered.error), /incorrectResponse.*another key authorization/);
    await runValidationRetries(t);
    const [failed] = await client.getAuthorizations(order);
    assert.equal(failed?.status, 'invalid');
  });
});
