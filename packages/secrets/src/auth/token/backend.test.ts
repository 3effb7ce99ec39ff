import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '@ward/base';
import type { TokenEntry } from '../../core/tokens/index.js';
import { createTestTokenStore } from '../../core/tokens/testing.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { Operation } from '../../logical/request.js';
import type { LogicalResponse } from '../../logical/response.js';
import { InmemStorage } from '../../storage/index.js';
import { createTokenBackend, TOKEN_SPECIAL_PATHS } from './backend.js';
import type { TokenRequest } from './deps.js';

const DAY = 86_400;

async function setup() {
  const t = await createTestTokenStore();
  const backend = createTokenBackend(
    t.store,
    {
      storage: new InmemStorage(),
      logger: silentLogger,
      clock: t.clock,
      random: t.random,
      options: {},
      system: {
        defaultLeaseTtlSeconds: () => 32 * DAY,
        maxLeaseTtlSeconds: () => 32 * DAY,
        generatePasswordFromPolicy: () => Promise.reject(new Error('no password policies here')),
      },
    },
    { policyExists: async (name) => ['default', 'dev', 'ops'].includes(name) },
  );
  /** A client holding `token`; `viaAccessor` leaves the token text out, as for a core that passes only the caller. */
  const as =
    (token: string, entry: TokenEntry, viaAccessor = false) =>
    (operation: Operation, path: string, data: Record<string, unknown> = {}): Promise<LogicalResponse | undefined> => {
      const req: TokenRequest = {
        id: 'req',
        operation,
        path,
        data,
        mountPoint: 'auth/token/',
        remoteAddress: '127.0.0.1',
        caller: { accessor: entry.accessor, policies: entry.policies, entityId: '', displayName: entry.display_name },
        ...(viaAccessor ? {} : { clientToken: token }),
      };
      return backend.handle(req);
    };
  const root = as(t.root.token, t.root.entry);
  /** A token with `dev` and `ops` (and default), made by root. */
  const limitedAuth = (await root('update', 'create', { policies: 'dev,ops' }))?.auth;
  assert.ok(limitedAuth);
  const limitedEntry = (await t.store.lookup(limitedAuth.client_token)) as TokenEntry;
  const limited = as(limitedAuth.client_token, limitedEntry);
  return { ...t, backend, as, root, limited, limitedToken: limitedAuth.client_token, limitedEntry };
}

const isInvalid = (message: string) => (err: unknown) => err instanceof InvalidRequestError && err.message === message;

describe('auth/token create', () => {
  it('answers with an auth block and data null, warning about missing policies', async () => {
    const { root } = await setup();
    const res = await root('update', 'create', {
      policies: ['dev', 'missing'],
      meta: { team: 'a' },
      ttl: '1h',
      num_uses: 4,
    });
    assert.equal(res?.data, null);
    assert.deepEqual(res?.warnings, ['Policy "missing" does not exist']);
    const auth = res?.auth;
    assert.ok(auth);
    assert.match(auth.client_token, /^hvs\./);
    assert.deepEqual(auth.policies, ['default', 'dev', 'missing']);
    assert.deepEqual(auth.token_policies, auth.policies);
    assert.deepEqual(auth.metadata, { team: 'a' });
    assert.deepEqual(
      [
        auth.lease_duration,
        auth.renewable,
        auth.token_type,
        auth.orphan,
        auth.num_uses,
        auth.entity_id,
        auth.mfa_requirement,
      ],
      [3600, true, 'service', false, 4, '', null],
    );
  });

  it('keeps a caller without sudo to its own policies, but lets it make orphans through create-orphan', async () => {
    const { limited } = await setup();
    await assert.rejects(
      limited('update', 'create', { policies: ['admin'] }),
      isInvalid('child policies must be subset of parent'),
    );
    await assert.rejects(
      limited('update', 'create', { no_parent: true }),
      isInvalid('root or sudo privileges required to create orphan token'),
    );
    const orphan = await limited('update', 'create-orphan', { policies: 'dev' });
    assert.equal(orphan?.auth?.orphan, true);
    assert.deepEqual(orphan?.auth?.policies, ['default', 'dev']);
  });

  it('creates batch tokens that look themselves up but have no accessor', async () => {
    const { root, as, store } = await setup();
    const auth = (await root('update', 'create', { type: 'batch', policies: 'dev', ttl: 300 }))?.auth;
    assert.ok(auth);
    assert.match(auth.client_token, /^hvb\./);
    assert.deepEqual([auth.accessor, auth.renewable, auth.token_type], ['', false, 'batch']);
    const entry = (await store.lookup(auth.client_token)) as TokenEntry;
    const self = await as(auth.client_token, entry)('read', 'lookup-self');
    assert.deepEqual([self?.data?.id, self?.data?.type, self?.data?.ttl], [auth.client_token, 'batch', 300]);
    await assert.rejects(
      as(auth.client_token, entry)('update', 'renew-self'),
      isInvalid('batch tokens cannot be renewed'),
    );
    await assert.rejects(
      as(auth.client_token, entry)('update', 'revoke-self'),
      isInvalid('batch tokens cannot be revoked'),
    );
  });
});

describe('auth/token lookup', () => {
  it('shows the established fields with the established types', async () => {
    const { root, clock } = await setup();
    const auth = (
      await root('update', 'create', { policies: 'dev', ttl: 600, display_name: 'ci job', meta: { a: 'b' } })
    )?.auth;
    clock.advance(100_500);
    const data = (await root('update', 'lookup', { token: auth?.client_token }))?.data;
    assert.ok(data);
    assert.equal(data.id, auth?.client_token);
    assert.equal(data.accessor, auth?.accessor);
    assert.equal(data.creation_time, Math.floor(Date.parse('2024-01-01T00:00:00Z') / 1000));
    assert.equal(data.creation_ttl, 600);
    assert.equal(data.ttl, 499);
    assert.equal(data.expire_time, '2024-01-01T00:10:00Z');
    assert.equal(data.issue_time, '2024-01-01T00:00:00Z');
    assert.equal(data.display_name, 'token-ci-job');
    assert.deepEqual(data.meta, { a: 'b' });
    assert.deepEqual(data.policies, ['default', 'dev']);
    assert.deepEqual(
      [data.num_uses, data.orphan, data.path, data.renewable, data.type, data.explicit_max_ttl, data.entity_id],
      [0, false, 'auth/token/create', true, 'service', 0, ''],
    );
  });

  it('looks up the caller’s own token with GET lookup and lookup-self, root showing no expiry', async () => {
    const { root } = await setup();
    const self = (await root('read', 'lookup-self'))?.data;
    assert.deepEqual([self?.expire_time, self?.ttl, self?.renewable, self?.policies], [null, 0, false, ['root']]);
    assert.deepEqual((await root('read', 'lookup'))?.data, self);
  });

  it('answers 403 bad token for an unknown token', async () => {
    const { limited } = await setup();
    await assert.rejects(
      limited('update', 'lookup', { token: 'hvs.000000000000000000000000' }),
      (err: unknown) => err instanceof PermissionDeniedError && err.message === 'bad token',
    );
  });

  it('never reveals the token through lookup-accessor', async () => {
    const { root, limitedEntry } = await setup();
    const data = (await root('update', 'lookup-accessor', { accessor: limitedEntry.accessor }))?.data;
    assert.equal(data?.id, '');
    assert.deepEqual(data?.policies, ['default', 'dev', 'ops']);
    await assert.rejects(root('update', 'lookup-accessor', { accessor: 'nope' }), isInvalid('invalid accessor'));
  });

  it('finds the caller by accessor when the core passes no token text', async () => {
    const { as, limitedToken, limitedEntry } = await setup();
    const data = (await as(limitedToken, limitedEntry, true)('read', 'lookup-self'))?.data;
    assert.deepEqual([data?.id, data?.accessor], ['', limitedEntry.accessor]);
  });
});

describe('auth/token renew', () => {
  it('renews by token, self and accessor, hiding the token in the accessor form', async () => {
    const { root, limited, limitedToken, limitedEntry, clock } = await setup();
    clock.advance(1000_000);
    const self = await limited('update', 'renew-self', { increment: '1h' });
    assert.deepEqual([self?.auth?.client_token, self?.auth?.lease_duration], [limitedToken, 3600]);
    const byToken = await root('update', 'renew', { token: limitedToken, increment: 60 });
    assert.equal(byToken?.auth?.lease_duration, 60);
    const byAccessor = await root('update', 'renew-accessor', { accessor: limitedEntry.accessor });
    // The original TTL (32 days) would end past creation + the mount max: capped, with a warning.
    assert.deepEqual([byAccessor?.auth?.client_token, byAccessor?.auth?.lease_duration], ['', 32 * DAY - 1000]);
    assert.equal(byAccessor?.warnings?.length, 1);
    await assert.rejects(root('update', 'renew', { token: 'hvs.nope' }), isInvalid('token not found'));
  });
});

describe('auth/token revoke', () => {
  it('revokes a token with its children, and ignores unknown tokens', async () => {
    const { root, limited, store, limitedToken } = await setup();
    const child = (await limited('update', 'create', { policies: 'dev' }))?.auth?.client_token as string;
    assert.equal(await root('update', 'revoke', { token: limitedToken }), undefined);
    assert.equal(await store.lookup(limitedToken), undefined);
    assert.equal(await store.lookup(child), undefined);
    assert.equal(await root('update', 'revoke', { token: 'hvs.unknown' }), undefined);
  });

  it('revokes by accessor and self', async () => {
    const { root, as, store, limitedEntry, limitedToken } = await setup();
    const other = (await root('update', 'create', { policies: 'dev' }))?.auth;
    await root('update', 'revoke-accessor', { accessor: other?.accessor });
    assert.equal(await store.lookup(other?.client_token as string), undefined);
    await assert.rejects(root('update', 'revoke-accessor', { accessor: 'nope' }), isInvalid('invalid accessor'));
    await as(limitedToken, limitedEntry)('update', 'revoke-self');
    assert.equal(await store.lookup(limitedToken), undefined);
  });

  it('revoke-orphan needs sudo and keeps the children', async () => {
    const { root, limited, store, limitedToken } = await setup();
    const child = (await limited('update', 'create', { policies: 'dev' }))?.auth?.client_token as string;
    await assert.rejects(limited('update', 'revoke-orphan', { token: child }), PermissionDeniedError);
    await root('update', 'revoke-orphan', { token: limitedToken });
    assert.equal(await store.lookup(limitedToken), undefined);
    assert.equal((await store.lookup(child))?.orphan, true);
  });
});

describe('auth/token roles and accessors', () => {
  it('writes, reads, lists and deletes roles, and creates tokens through them', async () => {
    const { root, limited } = await setup();
    await root('create', 'roles/Deploy', {
      allowed_policies: 'admin',
      token_type: 'default-batch',
      path_suffix: 'v2',
      token_ttl: '10m',
    });
    await root('update', 'roles/deploy', { orphan: true });
    const role = (await root('read', 'roles/deploy'))?.data;
    assert.deepEqual(
      [role?.name, role?.allowed_policies, role?.token_type, role?.orphan, role?.renewable, role?.token_ttl],
      ['deploy', ['admin'], 'default-batch', true, true, 600],
    );
    assert.deepEqual((await root('list', 'roles/'))?.data, { keys: ['deploy'] });

    const service = await limited('update', 'create/deploy', { type: 'service' });
    assert.deepEqual(
      [service?.auth?.policies, service?.auth?.token_type, service?.auth?.orphan, service?.auth?.lease_duration],
      [['admin', 'default'], 'service', true, 600],
    );
    const entryPath = (await root('update', 'lookup', { token: service?.auth?.client_token }))?.data?.path;
    assert.equal(entryPath, 'auth/token/create/deploy/v2');
    assert.equal((await limited('update', 'create/deploy'))?.auth?.token_type, 'batch');
    await assert.rejects(limited('update', 'create/nope'), isInvalid('unknown role nope'));

    await root('delete', 'roles/deploy');
    assert.equal(await root('read', 'roles/deploy'), undefined);
    assert.equal(await (await setup()).backend.exists({ ...baseReq(), path: 'roles/x' }), false);
  });

  it('lists accessors and declares the root-protected paths', async () => {
    const { root, limitedEntry } = await setup();
    const keys = (await root('list', 'accessors/'))?.data?.keys as string[];
    assert.ok(keys.includes(limitedEntry.accessor));
    assert.deepEqual(TOKEN_SPECIAL_PATHS, { root: ['revoke-orphan/*', 'accessors*'] });
  });
});

function baseReq(): TokenRequest {
  return { id: 'r', operation: 'update', path: '', data: {}, mountPoint: 'auth/token/', remoteAddress: '127.0.0.1' };
}
