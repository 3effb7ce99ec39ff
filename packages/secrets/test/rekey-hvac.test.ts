import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { decodeRootToken } from '@ward/secrets-client';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: hvac (Debian's python3-hvac) drives rekey and root-token generation the way
// hvac's own integration tests do. The script prints what it saw; the assertions live here.

const PYTHON = '/usr/bin/python3';
const run = promisify(execFile);
const OTP = 'BMjzW3wAsEzINXCM05Wbas3u9zSl';

const SCRIPT = `
import json, sys, hvac
client = hvac.Client(url=sys.argv[1])
out = {}
init = client.sys.initialize(secret_shares=5, secret_threshold=3)
client.token = init['root_token']
client.sys.submit_unseal_keys(init['keys'])
keys = init['keys']
out['gen_idle'] = client.sys.read_root_generation_progress()['started']
nonce = client.sys.start_root_token_generation(otp='${OTP}')['nonce']
out['gen_started'] = client.sys.read_root_generation_progress()['started']
last = None
for key in keys[0:3]:
    last = client.sys.generate_root(key=key, nonce=nonce)
out['gen_last'] = last
out['gen_after'] = client.sys.read_root_generation_progress()['started']
out['rekey_idle'] = client.sys.read_rekey_progress()['started']
client.sys.start_rekey()
client.sys.cancel_rekey()
out['rekey_cancelled'] = client.sys.read_rekey_progress()['started']
nonce = client.sys.start_rekey(secret_shares=5, secret_threshold=3, require_verification=True)['nonce']
result = client.sys.rekey_multi(keys, nonce=nonce)
out['rekey_complete'] = result['complete']
new_keys = result['keys']
first = client.sys.read_rekey_verify_progress()['nonce']
second = client.sys.cancel_rekey_verify()['nonce']
out['verify_nonces_differ'] = first != second
out['verify'] = client.sys.rekey_verify_multi(new_keys, nonce=second)
client.sys.seal()
out['unseal_new'] = client.sys.submit_unseal_keys(new_keys)['sealed']
try:
    client.sys.read_backup_keys()
except hvac.exceptions.InvalidRequest as e:
    out['backup'] = e.errors
print(json.dumps(out))
`;

describe('hvac (python3-hvac): rekey and generate-root', () => {
  let t: TestServer | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the script's JSON output
  let seen: any;
  before(async () => {
    t = await startTestServer({ uninitialized: true });
    const { stdout } = await run(PYTHON, ['-c', SCRIPT, t.url], { timeout: 60_000 });
    seen = JSON.parse(stdout);
  });
  after(() => t?.stop());

  it('generates a root token hvac’s OTP decodes', async () => {
    assert.equal(seen.gen_idle, false);
    assert.equal(seen.gen_started, true);
    assert.equal(seen.gen_last.complete, true);
    assert.equal(seen.gen_after, false);
    const token = decodeRootToken(seen.gen_last.encoded_root_token, OTP);
    const self = await t?.request('GET', 'auth/token/lookup-self', { token });
    assert.equal(self?.status, 200);
  });

  it('rekeys with verification, and the new keys unseal', () => {
    assert.equal(seen.rekey_idle, false);
    assert.equal(seen.rekey_cancelled, false);
    assert.equal(seen.rekey_complete, true);
    assert.equal(seen.verify_nonces_differ, true);
    assert.equal(seen.verify.complete, true);
    assert.equal(seen.unseal_new, false);
    assert.deepEqual(seen.backup, ['no backed-up keys found']);
  });
});
