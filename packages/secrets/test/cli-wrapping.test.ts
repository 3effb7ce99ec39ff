import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness } from '../src/cli/testing.js';

// Issue 13, point 5: `-wrap-ttl` on any client command, and `ward unwrap`.

describe('ward -wrap-ttl and ward unwrap', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
    assert.equal((await cli.ward(['kv', 'put', 'secret/wrapme', 'password=p4ss'])).code, 0);
  });
  after(() => cli.stop());

  it('wraps a read, shows how to unwrap it, and unwraps it once by argument', async () => {
    const wrapped = await cli.ward(['read', '-wrap-ttl=5m', 'secret/data/wrapme']);
    assert.equal(wrapped.code, 0, wrapped.stderr);
    assert.match(wrapped.stdout, /^wrapping_token\s+hvs\.\S+$/m);
    assert.match(wrapped.stdout, /^wrapping_token_ttl\s+5m$/m);
    assert.match(wrapped.stdout, /^wrapping_token_creation_path\s+secret\/data\/wrapme$/m);
    assert.doesNotMatch(wrapped.stdout, /p4ss/);

    const token = (
      await cli.ward(['read', '-wrap-ttl=5m', '-field=wrapping_token', 'secret/data/wrapme'])
    ).stdout.trim();
    const unwrapped = await cli.ward(['unwrap', '-format=json', token]);
    assert.equal(unwrapped.code, 0, unwrapped.stderr);
    assert.deepEqual(JSON.parse(unwrapped.stdout).data.data, { password: 'p4ss' });
    const again = await cli.ward(['unwrap', token]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /wrapping token is not valid or does not exist/);
  });

  it('wraps kv get too (the lookup of the mount version is not wrapped)', async () => {
    const token = (
      await cli.ward(['kv', 'get', '-wrap-ttl=1m', '-field=wrapping_token', 'secret/wrapme'])
    ).stdout.trim();
    assert.match(token, /^hvs\./);
    const unwrapped = await cli.ward(['unwrap', '-format=json', token]);
    assert.deepEqual(JSON.parse(unwrapped.stdout).data.data, { password: 'p4ss' });
  });

  it('wraps a new token; `ward unwrap` with the wrapping token as VAULT_TOKEN shows the token', async () => {
    const wrapped = await cli.ward(['token', 'create', '-policy=default', '-wrap-ttl=2m', '-format=json']);
    assert.equal(wrapped.code, 0, wrapped.stderr);
    const info = JSON.parse(wrapped.stdout).wrap_info;
    assert.ok(info.wrapped_accessor);
    const unwrapped = await runWardInProcess(['unwrap'], { ...cli.env, VAULT_TOKEN: info.token });
    assert.equal(unwrapped.code, 0, unwrapped.stderr);
    assert.match(unwrapped.stdout, new RegExp(`^token_accessor\\s+${info.wrapped_accessor}$`, 'm'));
  });
});
