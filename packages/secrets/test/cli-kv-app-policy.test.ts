import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness } from '../src/cli/testing.js';

// Issue 21, point 1: a token limited to its app's paths (what a userpass login normally
// gets) can use every `ward kv` command there, through `sys/internal/ui/mounts`.
const APP_POLICY = `
path "secret/data/app/*" { capabilities = ["create", "read", "update", "delete", "list"] }
path "secret/metadata/app/*" { capabilities = ["read", "list", "delete"] }
`;

describe('ward kv under an ordinary app policy, after ward login -method=userpass', () => {
  let cli: CliHarness;
  let userEnv: Record<string, string>;
  before(async () => {
    cli = await startCliHarness();
    const root = cli.server.request;
    assert.equal((await root('PUT', 'sys/policies/acl/app', { body: { policy: APP_POLICY } })).status, 204);
    assert.equal((await root('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    assert.equal((await root('POST', 'sys/mounts/private', { body: { type: 'kv' } })).status, 204);
    const user = await root('POST', 'auth/userpass/users/alice', { body: { password: 'pw-alice', policies: 'app' } });
    assert.equal(user.status, 204);
    // The user's own HOME and no VAULT_TOKEN: `login` stores the token there for later commands.
    userEnv = { VAULT_ADDR: cli.server.url, HOME: `${cli.env.HOME}/alice` };
    await import('node:fs/promises').then((fs) => fs.mkdir(userEnv.HOME as string));
  });
  after(() => cli.stop());
  const alice = (args: string[]) => runWardInProcess(args, userEnv);

  it('logs in, then kv put / get / list / metadata get / delete work below secret/app', async () => {
    const login = await alice(['login', '-method=userpass', 'username=alice', 'password=pw-alice']);
    assert.equal(login.code, 0, login.stderr);

    const put = await alice(['kv', 'put', 'secret/app/db', 'password=hunter2']);
    assert.equal(put.code, 0, put.stderr);
    assert.match(put.stdout, /version\s+1/);
    assert.equal((await alice(['kv', 'get', '-field=password', 'secret/app/db'])).stdout, 'hunter2\n');
    assert.equal((await alice(['kv', 'get', '-mount=secret', '-field=password', 'app/db'])).stdout, 'hunter2\n');

    const list = await alice(['kv', 'list', 'secret/app']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^db$/m);

    const meta = await alice(['kv', 'metadata', 'get', 'secret/app/db']);
    assert.equal(meta.code, 0, meta.stderr);
    assert.match(meta.stdout, /current_version\s+1/);

    const del = await alice(['kv', 'delete', 'secret/app/db']);
    assert.equal(del.code, 0, del.stderr);
    assert.equal((await alice(['kv', 'get', 'secret/app/db'])).code, 2);
  });

  it('a path outside the policy is refused with the path the token lacks', async () => {
    const other = await alice(['kv', 'get', 'private/x']);
    assert.equal(other.code, 2);
    assert.match(
      other.stderr,
      /preflight capability check returned 403, please ensure client's policies grant access to path "private\/x\/"/,
    );
    const none = await alice(['kv', 'get', 'nothing/here']);
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /preflight capability check returned 403, please ensure client's policies grant access to path "nothing\/here\/"/,
    );
  });

  it('sys/internal/ui/mounts lists only the mounts the token can use; without a token, only unauth-visible ones', async () => {
    const token = (await cli.server.request('POST', 'auth/userpass/login/alice', { body: { password: 'pw-alice' } }))
      .body.auth.client_token;
    const listing = await cli.server.request('GET', 'sys/internal/ui/mounts', { token });
    assert.equal(listing.status, 200);
    assert.ok(listing.body.data.secret['secret/'], 'the app policy reaches below secret/');
    assert.equal(listing.body.data.secret['private/'], undefined, 'nothing in the policy reaches below private/');
    assert.equal(listing.body.data.secret['secret/'].options.version, '2');
    const one = await cli.server.request('GET', 'sys/internal/ui/mounts/secret/app/db', { token });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.path, 'secret/');
    assert.equal(one.body.data.type, 'kv');

    const anonymous = await cli.server.request('GET', 'sys/internal/ui/mounts', { token: null });
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.body.data, { secret: {}, auth: {} });
    const tune = await cli.server.request('POST', 'sys/mounts/secret/tune', { body: { listing_visibility: 'unauth' } });
    assert.equal(tune.status, 204);
    const visible = await cli.server.request('GET', 'sys/internal/ui/mounts', { token: null });
    assert.deepEqual(Object.keys(visible.body.data.secret['secret/']).sort(), ['description', 'options', 'type']);
    assert.equal((await cli.server.request('GET', 'sys/internal/ui/mounts/secret/x', { token: null })).status, 403);
    assert.equal((await cli.server.request('GET', 'sys/internal/ui/mounts', { token: 'bogus' })).status, 403);
  });
});
