import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startDevWard, type WardProcess } from './ward-process.js';

// Issue 18: the real hvac client (Debian's python3-hvac) drives AppRole on the real
// `bin/ward server -dev`. The script prints what it saw as JSON; the assertions live here.

const PYTHON = '/usr/bin/python3';
const run = promisify(execFile);

const SCRIPT = `
import json, sys, hvac
url = sys.argv[1]
admin = hvac.Client(url=url, token='root')
approle = admin.auth.approle
out = {}
admin.sys.enable_auth_method('approle', path='machines')
approle.create_or_update_approle('Build', token_policies=['default', 'ci'], secret_id_num_uses=2,
                                 mount_point='machines')
approle.update_role_id('build', 'build-role-id', mount_point='machines')
out['role'] = approle.read_role('build', mount_point='machines')['data']
out['roles'] = approle.list_roles(mount_point='machines')['data']['keys']
out['role_id'] = approle.read_role_id('build', mount_point='machines')['data']['role_id']
generated = approle.generate_secret_id('build', metadata={'job': '42'}, cidr_list=['127.0.0.1/32'],
                                       mount_point='machines')['data']
out['generated_keys'] = sorted(generated)
out['lookup'] = approle.read_secret_id('build', generated['secret_id'], mount_point='machines')['data']
out['accessors'] = approle.list_secret_id_accessors('build', mount_point='machines')['data']['keys']
out['by_accessor'] = approle.read_secret_id_accessor('build', generated['secret_id_accessor'],
                                                    mount_point='machines')['data']
machine = hvac.Client(url=url)
out['login'] = machine.auth.approle.login('build-role-id', generated['secret_id'], mount_point='machines')['auth']
out['authenticated'] = machine.is_authenticated()
out['self'] = machine.auth.token.lookup_self()['data']
machine.auth.approle.login('build-role-id', generated['secret_id'], mount_point='machines')
try:
    hvac.Client(url=url).auth.approle.login('build-role-id', generated['secret_id'], mount_point='machines')
    out['third_login'] = 'accepted'
except hvac.exceptions.InvalidRequest as e:
    out['third_login'] = e.errors
custom = approle.create_custom_secret_id('build', 'my-own-secret', mount_point='machines')['data']
out['custom'] = custom['secret_id']
out['destroy_status'] = approle.destroy_secret_id('build', 'my-own-secret', mount_point='machines').status_code
out['lookup_gone_status'] = approle.read_secret_id('build', 'my-own-secret', mount_point='machines').status_code
out['delete_status'] = approle.delete_role('build', mount_point='machines').status_code
print(json.dumps(out))
`;

describe('hvac (python3-hvac) with AppRole on bin/ward server -dev', () => {
  let ward: WardProcess | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the script's JSON output
  let seen: any;

  before(async () => {
    const dev = await startDevWard('root');
    ward = dev.ward;
    const { stdout } = await run(PYTHON, ['-c', SCRIPT, dev.url], { timeout: 60_000 });
    seen = JSON.parse(stdout);
  });
  after(() => ward?.child.kill('SIGKILL'));

  it('manages roles and role ids', () => {
    assert.deepEqual(seen.roles, ['build']);
    assert.equal(seen.role_id, 'build-role-id');
    assert.equal(seen.role.secret_id_num_uses, 2);
    assert.equal(seen.role.bind_secret_id, true);
    assert.deepEqual(seen.role.token_policies, ['default', 'ci']);
  });

  it('generates secret ids and looks them up by value and accessor', () => {
    assert.deepEqual(seen.generated_keys, ['secret_id', 'secret_id_accessor', 'secret_id_num_uses', 'secret_id_ttl']);
    assert.deepEqual(seen.lookup.metadata, { job: '42' });
    assert.equal(seen.lookup.secret_id_num_uses, 2);
    assert.deepEqual(seen.accessors, [seen.by_accessor.secret_id_accessor]);
    assert.deepEqual(seen.by_accessor.cidr_list, ['127.0.0.1/32']);
  });

  it('logs in, and a secret id with two uses logs in twice only', () => {
    assert.match(seen.login.client_token, /^hvs\./);
    assert.deepEqual(seen.login.metadata, { job: '42', role_name: 'build' });
    assert.deepEqual(seen.login.policies, ['ci', 'default']);
    assert.equal(seen.authenticated, true);
    assert.equal(seen.self.display_name, 'machines');
    assert.equal(seen.self.path, 'auth/machines/login');
    assert.deepEqual(seen.third_login, ['invalid role or secret ID']);
  });

  it('registers, destroys and deletes', () => {
    assert.equal(seen.custom, 'my-own-secret');
    assert.equal(seen.destroy_status, 204);
    assert.equal(seen.lookup_gone_status, 204);
    assert.equal(seen.delete_status, 204);
  });
});
