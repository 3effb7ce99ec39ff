import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type InvalidationTargets, invalidateKeys, needsReload } from './cache-invalidation.js';

/** Records which cache each changed key reached. */
function recorder() {
  const calls: string[] = [];
  const targets: InvalidationTargets = {
    forgetValue: (key) => calls.push(`value ${key}`),
    reloadKeyring: async () => {
      calls.push('keyring');
    },
    forgetToken: (key) => calls.push(`token ${key}`),
    forgetPolicy: (ns, name) => calls.push(`policy ${ns} ${name}`),
    reloadIdentity: async (ns, key) => {
      calls.push(`identity ${ns} ${key}`);
    },
  };
  return { calls, targets };
}

describe('cache invalidation from the change feed (issue 19 point 7)', () => {
  it('sends each changed key to the cache that holds it, and drops its decrypted value', async () => {
    const { calls, targets } = recorder();
    await invalidateKeys(targets, [
      'sys/token/id/h1',
      'sys/policy/reader',
      'namespaces/ns1/policy/admin',
      'identity/entity/e1',
      'namespaces/ns1/identity/group/g1',
      'logical/uuid/data/x',
    ]);
    assert.deepEqual(calls, [
      'value sys/token/id/h1',
      'token id/h1',
      'value sys/policy/reader',
      'policy root reader',
      'value namespaces/ns1/policy/admin',
      'policy ns1 admin',
      'value identity/entity/e1',
      'identity root entity/e1',
      'value namespaces/ns1/identity/group/g1',
      'identity ns1 group/g1',
      'value logical/uuid/data/x',
    ]);
  });

  it('reads the keyring again before anything else, so a value under a new term decrypts', async () => {
    const { calls, targets } = recorder();
    await invalidateKeys(targets, ['logical/uuid/x', 'core/keyring', 'core/root-key']);
    assert.equal(calls[0], 'keyring');
  });

  it('rebuilds everything for mount tables, audit, CORS, namespaces and managed keys, not for data', () => {
    for (const key of [
      'core/mounts',
      'core/auth',
      'core/audit',
      'core/cors-config',
      'sys/namespaces/ns1',
      'namespaces/ns1/core/token-mount',
      'sys/managed-keys/k',
    ]) {
      assert.equal(needsReload([key]), true, key);
    }
    for (const key of ['core/keyring', 'core/root-key', 'sys/token/id/h', 'logical/u/x', 'sys/policy/p']) {
      assert.equal(needsReload([key]), false, key);
    }
  });
});
