import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { createTestTokenStore, SYSTEM_TTLS } from './testing.js';
import { defaultRole, type TokenRole } from './token-roles.js';

describe('token roles', () => {
  async function withRole(changes: Partial<TokenRole>) {
    const t = await createTestTokenStore();
    const role = await t.store.roles.put({ ...defaultRole('r'), ...changes });
    const ctx = { parent: t.root.entry, isSudo: false, mount: SYSTEM_TTLS, role };
    return { ...t, role, ctx };
  }
  const PATH = 'auth/token/create/r';

  it('picks the token type from token_type, letting default-* be overridden', async () => {
    const cases: Array<[TokenRole['token_type'], string | undefined, string]> = [
      ['default-service', undefined, 'service'],
      ['default-service', 'batch', 'batch'],
      ['default-batch', undefined, 'batch'],
      ['default-batch', 'service', 'service'],
      ['service', 'batch', 'service'],
      ['batch', 'service', 'batch'],
    ];
    for (const [tokenType, asked, expected] of cases) {
      const { store, ctx } = await withRole({ token_type: tokenType, allowed_policies: ['dev'] });
      const { entry } = await store.create({ path: PATH, type: asked }, ctx);
      assert.equal(entry.type, expected, `${tokenType} + ${asked}`);
    }
  });

  it('grants the allowed policies regardless of the parent, and refuses others', async () => {
    const { store, ctx } = await withRole({ allowed_policies: ['dev', 'ops'], allowed_policies_glob: ['team-*'] });
    assert.deepEqual((await store.create({ path: PATH }, ctx)).entry.policies, ['default', 'dev', 'ops']);
    assert.deepEqual((await store.create({ path: PATH, policies: ['team-a'] }, ctx)).entry.policies, [
      'default',
      'team-a',
    ]);
    await assert.rejects(store.create({ path: PATH, policies: ['admin'] }, ctx), InvalidRequestError);
  });

  it('refuses disallowed policies and applies the role’s token settings', async () => {
    const { store, ctx, role } = await withRole({
      disallowed_policies: ['admin'],
      orphan: true,
      token_period: 600,
      token_num_uses: 5,
      path_suffix: 'v1',
    });
    await assert.rejects(
      store.create({ path: PATH, policies: ['admin'] }, ctx),
      (err: unknown) =>
        err instanceof InvalidRequestError && err.message === 'token policy "admin" is disallowed by this role',
    );
    const { entry } = await store.create({ path: PATH, policies: ['dev'] }, ctx);
    assert.deepEqual(
      [entry.orphan, entry.period, entry.num_uses, entry.role, entry.policies],
      [true, 600, 5, role.name, ['default', 'dev']],
    );
  });

  it('validates token_type and batch combinations, lower-cases names, lists and deletes', async () => {
    const { store } = await createTestTokenStore();
    await assert.rejects(
      store.roles.put({ ...defaultRole('x'), token_type: 'weird' as TokenRole['token_type'] }),
      (err: unknown) => err instanceof InvalidRequestError && err.message === `invalid 'token_type' value "weird"`,
    );
    await assert.rejects(
      store.roles.put({ ...defaultRole('x'), token_type: 'batch', token_period: 60 }),
      InvalidRequestError,
    );
    await store.roles.put({ ...defaultRole('Web'), token_bound_cidrs: ['10.0.0.1'] });
    assert.deepEqual((await store.roles.get('web'))?.token_bound_cidrs, ['10.0.0.1/32']);
    assert.deepEqual(await store.roles.list(), ['web']);
    await store.roles.delete('WEB');
    assert.deepEqual(await store.roles.list(), []);
  });
});
