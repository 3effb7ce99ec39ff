import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward token lookup|renew|revoke` by accessor, `revoke -self`, `-mode=orphan|path`, as
// established, through bin/ward against bin/ward server -dev.

/** Lets a token make children. */
const CREATOR_POLICY = 'path "auth/token/create" { capabilities = ["update"] }\n';

describe('ward token by accessor and revoke modes (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  const ward = (args: string[], token?: string) =>
    runWard(args, { ...dev.env, ...(token === undefined ? {} : { VAULT_TOKEN: token }) });
  const ok = async (args: string[], token?: string) => {
    const run = await ward(args, token);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run;
  };
  const createToken = async (...flags: string[]) =>
    JSON.parse((await ok(['token', 'create', '-policy=default', '-ttl=1h', '-format=json', ...flags])).stdout).auth;
  const isAlive = async (token: string) => (await ward(['token', 'lookup'], token)).code === 0;

  before(async () => {
    dev = await startDevWard('root');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('token lookup -accessor: JSON, table, and the accessor required', async () => {
    const { client_token: token, accessor } = await createToken('-display-name=ci');
    const json = JSON.parse((await ok(['token', 'lookup', '-accessor', '-format=json', accessor])).stdout);
    assert.equal(json.data.accessor, accessor);
    assert.equal(json.data.id, '', 'a lookup by accessor does not show the token');
    assert.equal(json.data.display_name, 'token-ci');
    const table = (await ok(['token', 'lookup', '-accessor', accessor])).stdout;
    assert.match(table, new RegExp(`^accessor\\s+${accessor}$`, 'm'));
    assert.match(table, /^policies\s+\[default\]$/m);
    const missing = await ward(['token', 'lookup', '-accessor']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /-accessor needs the ACCESSOR argument/);
    assert.ok(await isAlive(token));
  });

  it('token renew -accessor: the token renewed, shown as JSON and as a table', async () => {
    const { accessor } = await createToken();
    const json = JSON.parse(
      (await ok(['token', 'renew', '-accessor', '-increment=30m', '-format=json', accessor])).stdout,
    );
    assert.equal(json.auth.accessor, accessor);
    assert.equal(json.auth.lease_duration, 1800);
    const table = (await ok(['token', 'renew', '-accessor', '-increment=20m', accessor])).stdout;
    assert.match(table, /^token_duration\s+20m$/m);
    assert.match(table, new RegExp(`^token_accessor\\s+${accessor}$`, 'm'));
  });

  it('token revoke -accessor and -self', async () => {
    const byAccessor = await createToken();
    const out = await ok(['token', 'revoke', '-accessor', byAccessor.accessor]);
    assert.match(out.stdout, /Success! Revoked token \(if it existed\)/);
    assert.equal(await isAlive(byAccessor.client_token), false);
    const self = await createToken();
    await ok(['token', 'revoke', '-self'], self.client_token);
    assert.equal(await isAlive(self.client_token), false);
  });

  it('token revoke -mode=orphan keeps the children; without -mode they go too', async () => {
    const creator = await runWard(['policy', 'write', 'creator', '-'], dev.env, CREATOR_POLICY);
    assert.equal(creator.code, 0, creator.stderr);
    const parent = await createToken('-policy=creator');
    const child = JSON.parse(
      (await ok(['token', 'create', '-policy=default', '-format=json'], parent.client_token)).stdout,
    ).auth;
    await ok(['token', 'revoke', '-mode=orphan', parent.client_token]);
    assert.equal(await isAlive(parent.client_token), false);
    assert.ok(await isAlive(child.client_token), 'the child lives on as an orphan');
    const orphanLookup = JSON.parse((await ok(['token', 'lookup', '-format=json', child.client_token])).stdout);
    assert.equal(orphanLookup.data.orphan, true);

    const tree = await createToken('-policy=creator');
    const leaf = JSON.parse((await ok(['token', 'create', '-format=json'], tree.client_token)).stdout).auth;
    await ok(['token', 'revoke', tree.client_token]);
    assert.equal(await isAlive(leaf.client_token), false);
  });

  it('token revoke -mode=path revokes the tokens of every login below the path', async () => {
    await ok(['auth', 'enable', 'userpass']);
    await ok(['write', 'auth/userpass/users/alice', 'password=pw', 'token_policies=default']);
    const login = async () =>
      JSON.parse(
        (await ok(['login', '-method=userpass', '-no-store', '-format=json', 'username=alice', 'password=pw'])).stdout,
      ).auth.client_token as string;
    const [first, second] = [await login(), await login()];
    const bystander = await createToken();
    const out = await ok(['token', 'revoke', '-mode=path', 'auth/userpass/']);
    assert.match(out.stdout, /Success! Revoked token \(if it existed\)/);
    assert.equal(await isAlive(first), false);
    assert.equal(await isAlive(second), false);
    assert.ok(await isAlive(bystander.client_token), 'a token of another path stays');
  });

  it('refuses the combinations the established CLI refuses, before sending', async () => {
    for (const args of [
      ['-mode=bogus', 'x'],
      ['-accessor', '-mode=orphan', 'x'],
      ['-accessor', '-mode=path', 'x'],
      ['-self', '-accessor'],
      ['-self', '-mode=orphan'],
      ['-self', 'x'],
      [],
    ]) {
      const run = await ward(['token', 'revoke', ...args]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
      assert.match(run.stderr, /^Error: /, args.join(' '));
    }
  });
});
