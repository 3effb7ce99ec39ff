import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess, runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward auth move` and `ward secrets move` as established (sys/remount, then its status until the
// move is done), through bin/ward against bin/ward server -dev.

describe('ward auth move / secrets move (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  const ward = (...args: string[]) => runWard(args, dev.env);
  const ok = async (...args: string[]) => expectSuccess(await ward(...args), args);

  before(async () => {
    dev = await startDevWard('root');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('auth move keeps the configuration at the new path', async () => {
    await ok('auth', 'enable', 'approle');
    await ok('write', 'auth/approle/role/ci', 'token_policies=ci');
    const out = await ok('auth', 'move', 'auth/approle', 'auth/apps/');
    assert.match(out, /^Started moving auth method auth\/approle\/ to auth\/apps\/, with migration ID \S+$/m);
    assert.match(out, /^Success! Finished moving auth method auth\/approle\/ to auth\/apps\/, with migration ID \S+$/m);
    const methods = JSON.parse(await ok('auth', 'list', '-format=json'));
    assert.equal(methods['apps/']?.type, 'approle');
    assert.equal(methods['approle/'], undefined);
    assert.match(await ok('read', '-field=token_policies', 'auth/apps/role/ci'), /ci/);
    assert.match(await ok('auth', 'list'), /^apps\/\s+approle/m);
  });

  it('refuses what the server refuses (exit 2, its reason), and takes exactly two arguments', async () => {
    const toSecrets = await ward('auth', 'move', 'auth/apps/', 'elsewhere/');
    assert.equal(toSecrets.code, 2);
    assert.match(toSecrets.stderr, /Code: 400[\s\S]*between secrets engines and auth methods/);
    const token = await ward('auth', 'move', 'auth/token/', 'auth/tokens/');
    assert.equal(token.code, 2);
    assert.match(token.stderr, /cannot remount "auth\/token\/"/);
    const one = await ward('auth', 'move', 'auth/apps/');
    assert.equal(one.code, 2);
    assert.match(one.stderr, /^Error: /);
  });

  it('secrets move moves the data and prints the same lines', async () => {
    await ok('secrets', 'enable', '-path=apps', '-version=2', 'kv');
    await ok('kv', 'put', 'apps/db', 'pw=x');
    const out = await ok('secrets', 'move', 'apps', 'applications');
    assert.match(out, /^Success! Finished moving secrets engine apps\/ to applications\/, with migration ID \S+$/m);
    assert.equal(await ok('kv', 'get', '-field=pw', 'applications/db'), 'x\n');
  });
});
