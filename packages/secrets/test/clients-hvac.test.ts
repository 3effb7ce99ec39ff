import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type HvacSteps, PYTHON, runHvacScript } from './hvac-steps.js';

// Issue 3: the real hvac client (Debian's python3-hvac) works unchanged against Ward.
// The Python script does the calls and prints what it saw; the assertions live here.

const DENIED = 'permission denied';
const run = promisify(execFile);

describe('hvac (python3-hvac) against a Ward server', () => {
  let t: TestServer | undefined;
  let steps: HvacSteps;
  const ok = <T>(name: string): T => steps.ok<T>(name);
  const failed = (name: string) => steps.failed(name);

  before(async () => {
    const probe = await run(PYTHON, ['-c', 'import hvac']).catch((err: Error) => err);
    if (probe instanceof Error) {
      throw new Error(
        `${PYTHON} cannot import hvac: install the Debian package python3-hvac ` +
          `(listed in packages/secrets/system-packages.txt)\n${probe.message}`,
      );
    }
    t = await startTestServer();
    steps = await runHvacScript('hvac_flow.py', [t.url, t.rootToken]);
  });
  after(() => t?.stop());

  it('sees an initialised, unsealed server and an authenticated root token', () => {
    assert.equal(ok('is_authenticated'), true);
    assert.equal(ok('is_sealed'), false);
    const health = ok<Record<string, unknown>>('health_get');
    assert.equal(health.initialized, true);
    assert.equal(health.sealed, false);
    assert.equal(ok('health_head_status'), 200);
  });

  it('enables a KV v2 mount, then writes, reads, lists and deletes secrets', () => {
    assert.equal(ok('enable_kv2'), 204);
    const mount = ok<{ type: string; options: unknown }>('mount_kv2');
    assert.equal(mount.type, 'kv');
    assert.deepEqual(mount.options, { version: '2' });
    assert.equal(ok<{ version: number }>('kv2_write').version, 1);
    assert.equal(ok<{ version: number }>('kv2_write_again').version, 2);
    assert.deepEqual(ok('kv2_write_more'), [1, 1, 1]);

    const read = ok<{ data: unknown; metadata: { version: number } }>('kv2_read');
    assert.deepEqual(read.data, { user: 'bob' });
    assert.equal(read.metadata.version, 2);
    assert.deepEqual(ok('kv2_read_v1'), { user: 'alice' });
    assert.deepEqual(ok('kv2_list'), ['a', 'b', 'nested/'], 'list_secrets sends the LIST verb');

    assert.equal(ok('kv2_delete'), 204);
    assert.equal(failed('kv2_read_deleted').error, 'InvalidPath');
    assert.deepEqual(ok('kv2_list_after_delete'), ['a', 'nested/']);
  });

  it('enables a KV v1 mount, then writes, reads, lists and deletes secrets', () => {
    assert.equal(ok('enable_kv1'), 204);
    assert.equal(ok('kv1_write'), 204);
    assert.equal(ok('kv1_write_more'), 204);
    assert.deepEqual(ok('kv1_read'), { k: 'v' });
    assert.deepEqual(ok('kv1_list'), ['x', 'y']);
    assert.equal(ok('kv1_delete'), 204);
    assert.equal(failed('kv1_read_deleted').error, 'InvalidPath');
  });

  it('writes a policy and reads it back from sys/policy and sys/policies/acl', () => {
    assert.equal(ok('policy_write'), 204);
    const policy = ok<{ name: string; rules: string }>('policy_read');
    assert.equal(policy.name, 'app-reader');
    assert.match(policy.rules, /path "kv2\/data\/app\/\*" \{ capabilities = \["read"\] \}/);
    assert.ok(ok<string[]>('policy_list').includes('app-reader'));
    assert.deepEqual(ok('acl_policy_read'), { name: 'app-reader', policy: policy.rules });
  });

  it('creates a token limited by the policy; it works where allowed and gets Forbidden elsewhere', () => {
    const auth = ok<{ client_token: string; policies: string[]; lease_duration: number }>('token_create');
    assert.deepEqual([...auth.policies].sort(), ['app-reader', 'default']);
    assert.equal(auth.lease_duration, 3600);

    assert.equal(ok('limited_is_authenticated'), true);
    const self = ok<{ id: string; policies: string[] }>('limited_lookup_self');
    assert.equal(self.id, auth.client_token);
    assert.deepEqual(ok('limited_read_allowed'), { user: 'bob' });
    assert.deepEqual(ok('limited_list_allowed'), ['a', 'nested/']);

    for (const name of ['limited_write_denied', 'limited_read_denied', 'limited_kv1_denied', 'limited_sys_denied']) {
      assert.deepEqual(failed(name), { error: 'Forbidden', errors: [DENIED] }, name);
    }
    assert.equal(ok('bogus_is_authenticated'), false, 'an unknown token is not authenticated');
  });
});
