import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 3: the real hvac client (Debian's python3-hvac) works unchanged against Ward.
// The Python script does the calls and prints what it saw; the assertions live here.

// Debian's interpreter: a python3 earlier on PATH (pyenv, venv) would not see python3-hvac.
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../test/fixtures/clients/hvac_flow.py', import.meta.url));
const DENIED = 'permission denied';

type Step = { ok: unknown } | { error: string; errors: string[] };

// Async on purpose: the server runs in this process, so a blocking spawn would starve it.
const run = promisify(execFile);

describe('hvac (python3-hvac) against a Ward server', () => {
  let t: TestServer | undefined;
  let seen: Record<string, Step>;
  /** The value of a step that must have succeeded. */
  const ok = <T>(name: string): T => {
    const step = seen[name];
    assert.ok(step && 'ok' in step, `${name}: ${JSON.stringify(step)}`);
    return step.ok as T;
  };
  /** The hvac exception of a step that must have failed. */
  const failed = (name: string) => {
    const step = seen[name];
    assert.ok(step && 'error' in step, `${name} should have failed: ${JSON.stringify(step)}`);
    return step;
  };

  before(async () => {
    const probe = await run(PYTHON, ['-c', 'import hvac']).catch((err: Error) => err);
    if (probe instanceof Error) {
      throw new Error(
        `${PYTHON} cannot import hvac: install the Debian package python3-hvac ` +
          `(listed in packages/secrets/system-packages.txt)\n${probe.message}`,
      );
    }
    t = await startTestServer();
    const { stdout } = await run(PYTHON, [SCRIPT, t.url, t.rootToken], { timeout: 60_000 });
    seen = JSON.parse(stdout) as Record<string, Step>;
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
