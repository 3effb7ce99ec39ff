import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { Lockout } from '../auth/userpass/lockout.js';
import type { MountEntry } from '../core/router/mount-table.js';
import type { Backend } from '../framework/index.js';
import { createBackend } from '../framework/index.js';
import type { Storage } from '../logical/storage.js';
import { pathLockedUsers } from './path-locked-users.js';
import type { SystemCore } from './system-core.js';

/** Neither backend here touches storage. */
const NO_STORAGE = {} as Storage;

describe('sys/locked-users', () => {
  const clock = new FakeClock(0);
  const lockout = new Lockout(clock);
  const userpass = {
    ...createBackend({ type: 'userpass', storage: NO_STORAGE, help: '', paths: [] }),
    lockedUsers: () => lockout.locked(),
    unlockUser: (name: string) => lockout.unlock(name),
  } as Backend;
  const sys = {
    namespace: { id: 'root', path: '', custom_metadata: {} },
    mounts: { entries: () => [{ path: 'userpass/', accessor: 'auth_userpass_1234' } as MountEntry] },
    openapiRoutes: () => [{ mountPoint: 'auth/userpass/', type: 'userpass', backend: userpass }],
  } as unknown as SystemCore;
  const backend = createBackend({ type: 'system', storage: NO_STORAGE, help: '', paths: pathLockedUsers(sys) });
  const call = (operation: 'read' | 'update', path: string) =>
    backend.handle({ id: '1', operation, path, data: {}, mountPoint: 'sys/', remoteAddress: '127.0.0.1' });

  it('lists locked users by mount accessor and unlocks them', async () => {
    assert.deepEqual((await call('read', 'locked-users'))?.data, { by_namespace: [], total: 0 });
    for (let i = 0; i < 5; i++) lockout.recordFailure('alice');
    const listed = await call('read', 'locked-users');
    assert.deepEqual(listed?.data, {
      by_namespace: [
        {
          namespace_id: 'root',
          namespace_path: '',
          counts: 1,
          mount_accessors: { auth_userpass_1234: { counts: 1, alias_identifiers: ['alice'] } },
        },
      ],
      total: 1,
    });
    await call('update', 'locked-users/auth_userpass_1234/unlock/alice');
    assert.equal(lockout.isLocked('alice'), false);
  });
});
