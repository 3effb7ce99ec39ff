import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { createLdapBackend } from '../src/engines/ldap/backend.js';
import { type TestBackend, testBackend } from '../src/framework/testing.js';
import { InvalidRequestError, NotFoundError } from '../src/logical/errors.js';
import type { InmemStorage } from '../src/storage/index.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';

const USERDN = `ou=users,${SUFFIX}`;
const dnOf = (cn: string) => `cn=${cn},${USERDN}`;

describe('ldap library sets (check-out / check-in) against slapd', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd();
  });
  after(() => slapd.stop());

  const setup = async (storage?: InmemStorage, clock = new FakeClock('2024-01-01T00:00:00Z')) => {
    // A restarted backend gets other random bytes: the same seed would make the same passwords again.
    const random = new SeededRandom(storage ? 2 : 1);
    const b = await testBackend(createLdapBackend, { clock, random, ...(storage ? { storage } : {}) });
    if (!storage) {
      await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url, userdn: USERDN });
    }
    return b;
  };
  const statusOf = async (b: TestBackend, set: string) =>
    (await b.read(`library/${set}/status`))?.data as Record<string, { available: boolean }>;
  const checkOut = async (b: TestBackend, set: string, data: Record<string, unknown> = {}) => {
    const secret = (await b.write(`library/${set}/check-out`, data))?.secret;
    assert.ok(secret);
    return {
      account: String(secret.data.service_account_name),
      password: String(secret.data.password),
      secret,
      lease: { leaseId: `l-${secret.internal?.checkout_id}`, type: secret.type, internal: secret.internal ?? {} },
    };
  };

  it('validates a set, rotates its accounts at create, and reads it back with the defaults', async () => {
    const unconfigured = await testBackend(createLdapBackend);
    await assert.rejects(unconfigured.write('library/a', { service_account_names: 'x' }), /config must exist/);
    const b = await setup();
    await assert.rejects(b.write('library/a', {}), /"service_account_names" must be provided/);
    await assert.rejects(
      b.write('library/a', { service_account_names: 'x', ttl: '2h', max_ttl: '1h' }),
      /max_ttl \(3600 seconds\) may not be less than ttl \(7200 seconds\)/,
    );
    await slapd.addUser('lib-a1', 'a1-initial');
    await slapd.addUser('lib-a2', 'a2-initial');
    await b.write('library/Team-A', { service_account_names: 'lib-a1, lib-a2,lib-a1' });
    assert.equal(await slapd.canBind(dnOf('lib-a1'), 'a1-initial'), false, 'rotated at create');
    assert.equal(await slapd.canBind(dnOf('lib-a2'), 'a2-initial'), false);
    assert.deepEqual((await b.read('library/team-a'))?.data, {
      service_account_names: ['lib-a1', 'lib-a2'],
      ttl: 86400,
      max_ttl: 86400,
      disable_check_in_enforcement: false,
    });
    assert.deepEqual((await b.list('library'))?.data?.keys, ['team-a']);
    await assert.rejects(b.read('library/nope'), NotFoundError);
    await assert.rejects(b.read('library/nope/status'), /"nope" doesn't exist/);
    await assert.rejects(b.write('library/nope/check-out'), /"nope" doesn't exist/);

    // An update changes only what it sends.
    await b.write('library/team-a', { ttl: '1h' });
    assert.equal((await b.read('library/team-a'))?.data?.ttl, 3600);
    assert.deepEqual((await b.read('library/team-a'))?.data?.service_account_names, ['lib-a1', 'lib-a2']);
    await assert.rejects(b.write('library/team-a', { service_account_names: [] }), /at least one service account/);

    // Names may have levels, as the established engine's do; LIST gives one level.
    await slapd.addUser('lib-h1', 'initial');
    await b.write('library/Org/Team', { service_account_names: 'lib-h1' });
    assert.deepEqual((await b.list('library'))?.data?.keys, ['org/', 'team-a']);
    assert.deepEqual((await b.list('library/org'))?.data?.keys, ['team']);
    const nested = await checkOut(b, 'org/team');
    assert.equal(nested.account, 'lib-h1');
    assert.equal((await statusOf(b, 'org/team'))['lib-h1']?.available, false);
    await b.write('library/manage/org/team/check-in');
    assert.equal((await statusOf(b, 'org/team'))['lib-h1']?.available, true);
    await assert.rejects(b.read('library/a//b'), /unsupported path|not found/i);
  });

  it('an account is managed in one place only: one set, and not also a static role (400)', async () => {
    const b = await setup();
    await slapd.addUser('lib-one', 'initial');
    await slapd.addUser('lib-static', 'initial');
    await b.write('library/one', { service_account_names: ['lib-one'] });
    await assert.rejects(
      b.write('library/two', { service_account_names: ['lib-one'] }),
      (err: Error) =>
        err instanceof InvalidRequestError && /"lib-one" is already managed by the secrets engine/.test(err.message),
    );
    await b.write('static-role/st', { username: 'lib-static', rotation_period: '1h' });
    await assert.rejects(b.write('library/two', { service_account_names: ['lib-static'] }), /already managed/);
    await assert.rejects(
      b.write('library/one', { service_account_names: ['lib-one', 'lib-static'] }),
      /already managed/,
    );
    await assert.rejects(
      b.write('static-role/other', { username: 'lib-one', rotation_period: '1h' }),
      /already managed/,
    );
    assert.equal(((await b.list('library'))?.data?.keys as string[]).length, 1, 'the refused set was not saved');
  });

  it('check-out hands out a password that binds; check-in rotates it; none left is a 400', async () => {
    const b = await setup();
    await slapd.addUser('lib-c1', 'initial');
    await slapd.addUser('lib-c2', 'initial');
    await b.write('library/pool', { service_account_names: ['lib-c1', 'lib-c2'], ttl: '10m', max_ttl: '1h' });

    const first = await checkOut(b, 'pool', { ttl: '5m' });
    assert.equal(first.account, 'lib-c1');
    assert.equal(first.secret.ttlSeconds, 300, 'a shorter ttl asked for');
    assert.equal(first.secret.type, 'checkout-creds');
    assert.ok(await slapd.canBind(dnOf('lib-c1'), first.password));
    const second = await checkOut(b, 'pool', { ttl: '2h' });
    assert.equal(second.account, 'lib-c2');
    assert.equal(second.secret.ttlSeconds, 600, "never longer than the set's ttl");
    await assert.rejects(b.write('library/pool/check-out'), /No service accounts available for check-out\./);

    const status = (await b.read('library/pool/status'))?.data;
    assert.deepEqual(status?.['lib-c1'], { available: false, borrower_accessor: 'test-accessor' });
    await assert.rejects(b.delete('library/pool'), /"lib-c1" can't be deleted because it is currently checked out/);
    await assert.rejects(b.write('library/pool', { service_account_names: ['lib-c2'] }), /currently checked out/);
    await assert.rejects(b.write('library/pool/check-in'), /the "service_account_names" to check in must be provided/);
    await assert.rejects(b.write('library/pool/check-in', { service_account_names: 'lib-zz' }), /not an account/);

    const checkedIn = await b.write('library/pool/check-in', { service_account_names: 'lib-c1' });
    assert.deepEqual(checkedIn?.data, { check_ins: ['lib-c1'] });
    assert.equal(await slapd.canBind(dnOf('lib-c1'), first.password), false, 'the old password is refused');
    assert.deepEqual((await b.read('library/pool/status'))?.data?.['lib-c1'], { available: true });
    // With one account out, check-in needs no names; an available one is skipped.
    assert.deepEqual((await b.write('library/pool/check-in'))?.data, { check_ins: ['lib-c2'] });
    assert.deepEqual((await b.write('library/pool/check-in', { service_account_names: 'lib-c1' }))?.data, {
      check_ins: [],
    });

    const again = await checkOut(b, 'pool');
    assert.ok(await slapd.canBind(dnOf('lib-c1'), again.password), 'the password set at check-in is handed out');
    assert.notEqual(again.password, first.password);
    await b.write('library/manage/pool/check-in', { service_account_names: ['lib-c1'] });
    await b.delete('library/pool');
    await assert.rejects(b.list('library'), NotFoundError);
    // Its accounts are free again.
    await b.write('library/pool2', { service_account_names: ['lib-c1'] });
  });

  it("the lease's end checks the account in; a stale lease never checks in a later borrower", async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await setup(undefined, clock);
    await slapd.addUser('lib-l1', 'initial');
    await b.write('library/lease', { service_account_names: ['lib-l1'], ttl: '10m', max_ttl: '30m' });
    const out = await checkOut(b, 'lease');
    clock.advance(20 * 60_000);
    assert.deepEqual(await b.backend.renewSecret(out.lease, 0), { ttlSeconds: 600 });
    clock.advance(9 * 60_000);
    assert.deepEqual(await b.backend.renewSecret(out.lease, 0), { ttlSeconds: 60 }, 'capped by max_ttl from check-out');
    await b.backend.revokeSecret(out.lease);
    assert.equal(await slapd.canBind(dnOf('lib-l1'), out.password), false);
    assert.equal((await statusOf(b, 'lease'))['lib-l1']?.available, true);
    await assert.rejects(b.backend.renewSecret(out.lease, 0), /lib-l1 is already checked in/);

    const next = await checkOut(b, 'lease');
    await b.backend.revokeSecret(out.lease);
    assert.ok(await slapd.canBind(dnOf('lib-l1'), next.password), 'the old lease left the new check-out alone');
    assert.equal((await statusOf(b, 'lease'))['lib-l1']?.available, false);
  });

  it('survives a restart: the check-out, its borrower and its password are in storage', async () => {
    const b = await setup();
    await slapd.addUser('lib-r1', 'initial');
    await b.write('library/restart', { service_account_names: ['lib-r1'] });
    const out = await checkOut(b, 'restart');
    const restarted = await setup(b.storage);
    assert.equal((await statusOf(restarted, 'restart'))['lib-r1']?.available, false);
    await assert.rejects(restarted.write('library/restart/check-out'), /No service accounts available/);
    await restarted.backend.revokeSecret(out.lease);
    assert.equal(await slapd.canBind(dnOf('lib-r1'), out.password), false);
    const again = await checkOut(restarted, 'restart');
    assert.ok(await slapd.canBind(dnOf('lib-r1'), again.password));
  });

  it('a check-in left half done (password saved as pending, directory unchanged) is finished with that password', async () => {
    const b = await setup();
    await slapd.addUser('lib-p1', 'initial');
    await b.write('library/pending', { service_account_names: ['lib-p1'] });
    const out = await checkOut(b, 'pending');
    const key = 'checkout/lib-p1';
    const state = JSON.parse(Buffer.from((await b.storage.get(key)) as Uint8Array).toString());
    await b.storage.put(key, Buffer.from(JSON.stringify({ ...state, pending_password: 'pending-Password-1' })));
    await b.backend.revokeSecret(out.lease);
    assert.ok(await slapd.canBind(dnOf('lib-p1'), 'pending-Password-1'));
    assert.equal((await checkOut(b, 'pending')).password, 'pending-Password-1');
  });

  it('concurrent check-outs never hand out the same account', async () => {
    const b = await setup();
    const names = ['lib-k1', 'lib-k2', 'lib-k3', 'lib-k4'];
    for (const name of names) await slapd.addUser(name, 'initial');
    await b.write('library/burst', { service_account_names: names });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => b.write('library/burst/check-out')));
    const handed = results.flatMap((r) =>
      r.status === 'fulfilled' ? [String(r.value?.secret?.data.service_account_name)] : [],
    );
    assert.deepEqual([...handed].sort(), names);
    const refused = results.filter((r) => r.status === 'rejected');
    assert.equal(refused.length, 6);
    for (const r of refused) assert.match(String((r as PromiseRejectedResult).reason), /No service accounts available/);
  });
});
