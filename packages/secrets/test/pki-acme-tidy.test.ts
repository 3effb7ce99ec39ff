import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import * as acme from 'acme-client';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { dns01Through } from './acme-testing.js';
import { FakeDnsServer } from './fakes/dns-server.js';

// Issue 32: tidy with tidy_acme, as established: orders go once their certificate expired
// safety_buffer ago (or, without one, once they expired); an idle account is revoked after
// acme_account_safety_buffer, and a revoked or deactivated one deleted after it. Real acme-client
// accounts and orders; the server's fake clock moves the days on.

const DAY_MS = 86_400_000;

describe('PKI tidy of ACME orders and accounts', () => {
  let t: TestServer;
  const dns = new FakeDnsServer();
  const ids = new Map<string, string>();

  const ok = async (method: string, path: string, body?: unknown) => (await t.ok(method, path, body))?.data;
  const client = async () =>
    new acme.Client({
      directoryUrl: `${t.url}/v1/pki/acme/directory`,
      accountKey: await acme.crypto.createPrivateEcdsaKey(),
    });
  const keyIdOf = (c: acme.Client) => c.getAccountUrl().split('/').pop() ?? '';
  /** Runs tidy_acme (the certificate store untouched) and answers tidy-status. */
  const tidy = async () => {
    await ok('POST', 'pki/tidy', { tidy_acme: true, safety_buffer: '1h' });
    return ok('GET', 'pki/tidy-status');
  };
  const account = (name: string) => t.request('GET', `pki/acme/mgmt/account/keyid/${ids.get(name)}`);

  before(async () => {
    const resolver = await dns.start();
    t = await startTestServer();
    await ok('POST', 'sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    await ok('POST', 'pki/root/generate/internal', { common_name: 'Tidy Root', ttl: '8760h', key_type: 'ec' });
    await ok('POST', 'pki/config/cluster', { path: `${t.url}/v1/pki` });
    await ok('POST', 'pki/config/acme', { enabled: true, dns_resolver: resolver });

    // issued: a certificate (the mount's default 32 days); pending: an order left alone; gone: deactivated.
    const issued = await client();
    const [, csr] = await acme.crypto.createCsr({ commonName: 'issued.test' });
    await issued.auto({ csr, ...dns01Through(dns) });
    const pending = await client();
    await pending.createAccount({ termsOfServiceAgreed: true });
    await pending.createOrder({ identifiers: [{ type: 'dns', value: 'pending.test' }] });
    const gone = await client();
    await gone.createAccount({ termsOfServiceAgreed: true });
    await gone.updateAccount({ status: 'deactivated' });
    for (const [name, c] of [
      ['issued', issued],
      ['pending', pending],
      ['gone', gone],
    ] as const)
      ids.set(name, keyIdOf(c));
  });
  after(async () => {
    await t.stop();
    await dns.stop();
  });

  it('keeps everything young', async () => {
    const status = await tidy();
    assert.equal(status.state, 'Finished');
    assert.deepEqual(
      [status.total_acme_account_count, status.acme_orders_deleted_count, status.acme_account_revoked_count],
      [3, 0, 0],
    );
  });

  it('drops an expired order without a certificate, then the idle accounts', async () => {
    (t.clock as FakeClock).advance(2 * DAY_MS);
    const early = await tidy();
    assert.equal(early.acme_orders_deleted_count, 1, 'the pending order expired after 24h');
    assert.deepEqual((await account('pending')).body.data.orders, []);
    assert.equal((await account('issued')).body.data.orders.length, 1, 'its certificate still lives');

    // 33 days on: the certificate expired (32 days) more than the safety buffer ago; the accounts
    // are older than acme_account_safety_buffer (30 days).
    (t.clock as FakeClock).advance(31 * DAY_MS);
    const late = await tidy();
    assert.equal(late.acme_orders_deleted_count, 1, "the issued order goes after its certificate's expiry");
    assert.equal(late.acme_account_deleted_count, 1, 'the deactivated account is deleted');
    assert.equal(late.acme_account_revoked_count, 1, 'the idle account is revoked');
    assert.equal((await account('gone')).status, 404);
    assert.equal((await account('pending')).body.data.status, 'revoked');
    // Its last certificate expired 1 day ago: kept valid for acme_account_safety_buffer.
    assert.equal((await account('issued')).body.data.status, 'valid');
    assert.deepEqual((await account('issued')).body.data.orders, []);

    (t.clock as FakeClock).advance(31 * DAY_MS);
    const last = await tidy();
    assert.deepEqual([last.acme_account_revoked_count, last.acme_account_deleted_count], [1, 1]);
    assert.equal((await account('pending')).status, 404, 'revoked longer than the buffer: deleted');
    assert.equal((await account('issued')).body.data.status, 'revoked');
  });
});
