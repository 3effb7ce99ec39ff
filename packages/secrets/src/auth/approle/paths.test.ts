import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cryptoRandom, FakeClock } from '@ward/base';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { createAppRoleBackend } from './backend.js';

// AppRole's paths beside their code (issue 30 point 6): roles, secret ids and their limits, tidy.
// Logins that make tokens, lockout across the core and renewal stay in test/approle-login.test.ts.

async function approle() {
  const clock = new FakeClock('2030-01-01T00:00:00Z');
  const t = await testBackend(createAppRoleBackend, { clock, random: cryptoRandom });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const ok = async (path: string, body?: Record<string, unknown>): Promise<any> => (await t.write(path, body))?.data;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const get = async (path: string): Promise<any> => (await t.read(path))?.data;
  const roleId = async (role: string): Promise<string> => (await get(`role/${role}/role-id`)).role_id;
  const refused = (path: string, body: Record<string, unknown>) =>
    assert.rejects(t.write(path, body), InvalidRequestError);
  return { t, clock, ok, get, roleId, refused };
}

describe('approle paths', () => {
  it('creates, reads and lists roles with the established fields; names fold to lower case', async () => {
    const { t, ok, get, roleId } = await approle();
    await ok('role/Web', { token_policies: 'app', secret_id_ttl: '10m', token_ttl: 600 });
    const read = await get('role/web');
    assert.equal(read.bind_secret_id, true);
    assert.equal(read.secret_id_ttl, 600);
    assert.equal(read.secret_id_num_uses, 0);
    assert.equal(read.local_secret_ids, false);
    assert.deepEqual(read.token_policies, ['app']);
    assert.equal(read.token_type, 'default');
    assert.deepEqual((await t.list('role'))?.data?.keys, ['web']);
    assert.match(await roleId('web'), /^[0-9a-f-]{36}$/);
    await assert.rejects(t.read('role/nope'), NotFoundError);
  });

  it('needs at least one constraint: a role without bind_secret_id must bind CIDRs', async () => {
    const { ok, refused, t } = await approle();
    await refused('role/open', { bind_secret_id: false });
    await ok('role/open', { bind_secret_id: false, secret_id_bound_cidrs: '127.0.0.0/8' });
    const login = await t.write('login', { role_id: (await t.read('role/open/role-id'))?.data?.role_id });
    assert.deepEqual(login?.login?.metadata, { role_name: 'open' });
  });

  it('keeps a secret id within the role limits', async () => {
    const { ok, refused, roleId, t } = await approle();
    await ok('role/narrow', { secret_id_num_uses: 2, secret_id_bound_cidrs: '10.0.0.0/8' });
    await refused('role/narrow/secret-id', { num_uses: 5 });
    await refused('role/narrow/secret-id', { cidr_list: '11.0.0.0/8' });
    const inside = await ok('role/narrow/secret-id', { cidr_list: '10.1.0.0/16' });
    // testBackend's caller comes from 127.0.0.1: outside the role's 10.0.0.0/8.
    await assert.rejects(
      t.write('login', { role_id: await roleId('narrow'), secret_id: inside.secret_id }),
      /unauthorized by CIDR restrictions/,
    );
  });

  it('looks up, lists and destroys secret ids by accessor; custom ids are unique and never shown again', async () => {
    const { t, ok, refused } = await approle();
    await ok('role/acc', {});
    await assert.rejects(t.list('role/acc/secret-id'), NotFoundError, 'none yet');
    const custom = await ok('role/acc/custom-secret-id', { secret_id: 'mine' });
    assert.equal(custom.secret_id, 'mine');
    await refused('role/acc/custom-secret-id', { secret_id: 'mine' });
    const accessor = custom.secret_id_accessor;
    assert.deepEqual((await t.list('role/acc/secret-id'))?.data?.keys, [accessor]);
    const byAccessor = await ok('role/acc/secret-id-accessor/lookup', { secret_id_accessor: accessor });
    assert.equal(byAccessor.secret_id_accessor, accessor);
    assert.equal(byAccessor.expiration_time, '0001-01-01T00:00:00Z');
    assert.equal('secret_id' in byAccessor, false);
    await ok('role/acc/secret-id-accessor/destroy', { secret_id_accessor: accessor });
    await assert.rejects(t.list('role/acc/secret-id'), NotFoundError);
  });

  it('expires secret ids after their TTL, and tidy removes them', async () => {
    const { t, clock, ok, roleId } = await approle();
    await ok('role/short', { secret_id_ttl: 60 });
    const secret = await ok('role/short/secret-id', {});
    clock.advance(61_000);
    await assert.rejects(t.write('login', { role_id: await roleId('short'), secret_id: secret.secret_id }), {
      message: 'invalid role or secret ID',
    });
    await ok('role/short/secret-id', {});
    await ok('role/short/secret-id', {});
    assert.equal(((await t.list('role/short/secret-id'))?.data?.keys as string[]).length, 2);
    clock.advance(61_000);
    await t.write('tidy/secret-id', {});
    await assert.rejects(t.list('role/short/secret-id'), NotFoundError);
  });

  it('reads, sets and resets single settings on paths of their own', async () => {
    const { t, ok, get, refused } = await approle();
    await ok('role/fields', { secret_id_num_uses: 3, token_ttl: '1h' });
    assert.deepEqual(await get('role/fields/secret-id-num-uses'), { secret_id_num_uses: 3 });
    await ok('role/fields/token-ttl', { token_ttl: '2h' });
    assert.equal((await get('role/fields')).token_ttl, 7200);
    await ok('role/fields/policies', { token_policies: 'a,b' });
    assert.deepEqual((await get('role/fields/policies')).token_policies, ['a', 'b']);
    await t.delete('role/fields/secret-id-num-uses');
    assert.equal((await get('role/fields')).secret_id_num_uses, 0);
    await refused('role/fields/secret-id-ttl', { secret_id_ttl: -1 });
    await refused('role/nobody/token-ttl', { token_ttl: 5 });
    await assert.rejects(t.read('role/nobody/token-ttl'), NotFoundError);
    assert.deepEqual(await get('role/fields/local-secret-ids'), { local_secret_ids: false });
  });

  it('stores no secret id in the clear, and no role id in a storage key', async () => {
    const { t, ok } = await approle();
    await ok('role/web', { role_id: 'web-role-id' });
    const secret = await ok('role/web/secret-id', {});
    const keys: string[] = [];
    const values: string[] = [];
    const walk = async (prefix: string): Promise<void> => {
      for (const key of await t.storage.list(prefix)) {
        if (key.endsWith('/')) await walk(prefix + key);
        else {
          keys.push(prefix + key);
          values.push(Buffer.from((await t.storage.get(prefix + key)) ?? []).toString());
        }
      }
    };
    await walk('');
    assert.ok(keys.length > 2);
    assert.equal([...keys, ...values].join('\n').includes(secret.secret_id), false);
    assert.equal(keys.join('\n').includes('web-role-id'), false);
  });

  it('a deleted role takes its secret ids with it, even when made again with the same role id', async () => {
    const { t, ok, roleId } = await approle();
    await ok('role/gone', {});
    const id = await roleId('gone');
    const secret = await ok('role/gone/secret-id', {});
    await t.delete('role/gone');
    await ok('role/gone', { role_id: id });
    await assert.rejects(t.write('login', { role_id: id, secret_id: secret.secret_id }), InvalidRequestError);
  });
});
