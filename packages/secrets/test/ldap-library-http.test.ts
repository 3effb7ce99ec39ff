import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { request } from '../src/server/testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { type DevWard, startDevWard, startSqliteWard, startWard, WARD_BIN, type WardProcess } from './ward-process.js';

const run = promisify(execFile);
const USERDN = `ou=users,${SUFFIX}`;
const dnOf = (cn: string) => `cn=${cn},${USERDN}`;

const BORROWER_POLICY = `
path "ldap/library/*" { capabilities = ["read", "update"] }
path "ldap/library/manage/*" { capabilities = ["deny"] }
`;

describe('ldap library sets over HTTP through bin/ward, against slapd', () => {
  let slapd: Slapd;
  let dev: DevWard;
  const tokenWith = async (policy: string) => {
    const res = await dev.call('POST', 'auth/token/create', { policies: [policy], no_parent: true });
    assert.equal(res.status, 200);
    return res.body.auth.client_token as string;
  };
  const login = async () => (await dev.call('POST', 'auth/userpass/login/alice', { password: 'pw' })).body.auth;
  const status = async (set: string) => (await dev.call('GET', `ldap/library/${set}/status`)).body.data;

  before(async () => {
    slapd = await startSlapd();
    dev = await startDevWard('root');
    assert.equal((await dev.call('POST', 'sys/mounts/ldap', { type: 'ldap' })).status, 204);
    const config = { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url, userdn: USERDN };
    assert.equal((await dev.call('POST', 'ldap/config', config)).status, 204);
    assert.equal((await dev.call('PUT', 'sys/policies/acl/borrower', { policy: BORROWER_POLICY })).status, 204);
    await dev.call('POST', 'sys/auth/userpass', { type: 'userpass' });
    await dev.call('POST', 'auth/userpass/users/alice', { password: 'pw', policies: 'borrower' });
    for (const cn of ['lib-h1', 'lib-h2', 'lib-s1']) await slapd.addUser(cn, 'initial');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await slapd?.stop();
  });

  it('creates, reads and lists a set; an account of another set is a 400', async () => {
    const created = await dev.call('POST', 'ldap/library/web', { service_account_names: 'lib-h1,lib-h2', ttl: '1h' });
    assert.equal(created.status, 204, JSON.stringify(created.body));
    assert.equal(await slapd.canBind(dnOf('lib-h1'), 'initial'), false);
    assert.deepEqual((await dev.call('GET', 'ldap/library/web')).body.data, {
      service_account_names: ['lib-h1', 'lib-h2'],
      ttl: 3600,
      max_ttl: 86400,
      disable_check_in_enforcement: false,
    });
    assert.deepEqual((await dev.call('LIST', 'ldap/library')).body.data.keys, ['web']);
    const taken = await dev.call('POST', 'ldap/library/other', { service_account_names: ['lib-h2'] });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.errors, ['"lib-h2" is already managed by the secrets engine']);
  });

  it('enforces check-in by the borrower: another token 400, the manage path 403 without its policy', async () => {
    const a = await tokenWith('borrower');
    const b = await tokenWith('borrower');
    const out = await dev.call('POST', 'ldap/library/web/check-out', {}, a);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.match(out.body.lease_id, /^ldap\/library\/web\/check-out\//);
    assert.equal(out.body.lease_duration, 3600);
    assert.equal(out.body.renewable, true);
    const { service_account_name: account, password } = out.body.data;
    assert.equal(account, 'lib-h1');
    assert.ok(await slapd.canBind(dnOf(account), password), 'the checked-out password binds');
    assert.ok((await status('web'))[account].borrower_accessor);

    const refused = await dev.call('POST', 'ldap/library/web/check-in', { service_account_names: [account] }, b);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, [
      `"${account}" can't be checked in because it wasn't checked out by the caller`,
    ]);
    // Without names, another caller's check-outs are not its to check in: nothing happens.
    assert.deepEqual((await dev.call('POST', 'ldap/library/web/check-in', {}, b)).body.data, { check_ins: [] });
    const forcedByB = await dev.call(
      'POST',
      'ldap/library/manage/web/check-in',
      { service_account_names: [account] },
      b,
    );
    assert.equal(forcedByB.status, 403);
    assert.equal((await status('web'))[account].available, false);

    const checkedIn = await dev.call('POST', 'ldap/library/web/check-in', {}, a);
    assert.deepEqual(checkedIn.body.data, { check_ins: [account] });
    assert.equal(await slapd.canBind(dnOf(account), password), false, 'the old password is refused after check-in');
    assert.equal((await status('web'))[account].available, true);
  });

  it('the same entity (another login of the same user) may check in; root forces a check-in', async () => {
    const first = await login();
    const second = await login();
    assert.notEqual(first.client_token, second.client_token);
    const out = await dev.call('POST', 'ldap/library/web/check-out', {}, first.client_token);
    const account = out.body.data.service_account_name;
    assert.equal((await status('web'))[account].borrower_entity_id, first.entity_id);
    const byEntity = await dev.call('POST', 'ldap/library/web/check-in', {}, second.client_token);
    assert.deepEqual(byEntity.body.data, { check_ins: [account] });

    const a = await tokenWith('borrower');
    const again = await dev.call('POST', 'ldap/library/web/check-out', {}, a);
    assert.equal(again.status, 200);
    const forced = await dev.call('POST', 'ldap/library/manage/web/check-in', { service_account_names: [account] });
    assert.deepEqual(forced.body.data, { check_ins: [account] });
    assert.equal(await slapd.canBind(dnOf(account), again.body.data.password), false);
    // The lease of the check-out already ended by force: its revocation changes nothing now.
    const next = await dev.call('POST', 'ldap/library/web/check-out', {}, a);
    assert.equal((await dev.call('PUT', 'sys/leases/revoke', { lease_id: again.body.lease_id })).status, 204);
    assert.ok(await slapd.canBind(dnOf(account), next.body.data.password));
    await dev.call('POST', 'ldap/library/manage/web/check-in', { service_account_names: [account] });
  });

  it('ward write -f checks out; ward lease revoke checks in (password rotated)', async () => {
    const env = { ...process.env, VAULT_ADDR: dev.url, VAULT_TOKEN: 'root' };
    const { stdout } = await run(
      process.execPath,
      [WARD_BIN, 'write', '-format=json', '-f', 'ldap/library/web/check-out'],
      {
        env,
      },
    );
    const out = JSON.parse(stdout);
    const account = out.data.service_account_name;
    assert.ok(await slapd.canBind(dnOf(account), out.data.password));
    const busy = await dev.call('DELETE', 'ldap/library/web');
    assert.equal(busy.status, 400);
    assert.deepEqual(busy.body.errors, [`"${account}" can't be deleted because it is currently checked out`]);
    await run(process.execPath, [WARD_BIN, 'lease', 'revoke', out.lease_id], { env });
    assert.equal(await slapd.canBind(dnOf(account), out.data.password), false);
    assert.equal((await status('web'))[account].available, true);
  });

  it("a check-out's lease expiring checks the account in", async () => {
    assert.equal(
      (await dev.call('POST', 'ldap/library/short', { service_account_names: ['lib-s1'], ttl: 2 })).status,
      204,
    );
    const out = await dev.call('POST', 'ldap/library/short/check-out');
    assert.equal(out.body.lease_duration, 2);
    const none = await dev.call('POST', 'ldap/library/short/check-out');
    assert.equal(none.status, 400);
    assert.deepEqual(none.body.errors, ['No service accounts available for check-out.']);
    for (let i = 0; i < 100 && !(await status('short'))['lib-s1'].available; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await status('short'))['lib-s1'].available, true);
    assert.equal(await slapd.canBind(dnOf('lib-s1'), out.body.data.password), false);
    assert.equal((await dev.call('DELETE', 'ldap/library/short')).status, 204);
    assert.equal((await dev.call('GET', 'ldap/library/short')).status, 404);
  });
});

describe('ldap library sets survive a bin/ward restart (SQLite storage)', () => {
  let slapd: Slapd;
  let ward: WardProcess | undefined;
  let dir = '';
  before(async () => {
    [slapd, dir] = await Promise.all([startSlapd(), mkdtemp(join(tmpdir(), 'ward-ldap-library-'))]);
  });
  after(async () => {
    ward?.child.kill('SIGTERM');
    await ward?.exited;
    await slapd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a check-out, its borrower and its lease outlive the process; revoking the lease then checks in', async () => {
    const first = await startSqliteWard(dir);
    ward = first.ward;
    const call = (url: string, method: string, path: string, body?: unknown) =>
      request(url, method, path, { token: first.rootToken, ...(body === undefined ? {} : { body }) });
    await call(first.url, 'POST', 'sys/mounts/ldap', { type: 'ldap' });
    await call(first.url, 'POST', 'ldap/config', {
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      url: slapd.url,
      userdn: USERDN,
    });
    await slapd.addUser('lib-r1', 'initial');
    await slapd.addUser('lib-r2', 'initial');
    assert.equal(
      (await call(first.url, 'POST', 'ldap/library/keep', { service_account_names: 'lib-r1,lib-r2' })).status,
      204,
    );
    const out = await call(first.url, 'POST', 'ldap/library/keep/check-out');
    assert.equal(out.status, 200);
    const { service_account_name: account, password } = out.body.data;
    ward.child.kill('SIGTERM');
    await ward.exited;

    ward = startWard(['server', `-config=${join(dir, 'ward.hcl')}`]);
    const [, url = ''] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    assert.equal((await request(url, 'PUT', 'sys/unseal', { body: { key: first.unsealKey } })).body.sealed, false);
    const status = (await call(url, 'GET', 'ldap/library/keep/status')).body.data;
    assert.equal(status[account].available, false);
    assert.ok(status[account].borrower_accessor);
    assert.ok(await slapd.canBind(dnOf(account), password), 'the checked-out password still binds');
    const next = await call(url, 'POST', 'ldap/library/keep/check-out');
    assert.notEqual(next.body.data.service_account_name, account, 'the borrowed account is not handed out again');
    assert.equal((await call(url, 'PUT', 'sys/leases/revoke', { lease_id: out.body.lease_id })).status, 204);
    assert.equal(await slapd.canBind(dnOf(account), password), false);
    assert.equal((await call(url, 'GET', 'ldap/library/keep/status')).body.data[account].available, true);
  });
});
