import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness, tempHome } from '../src/cli/testing.js';

describe('ward token / login against a running server', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());

  it('token create / lookup / renew / revoke', async () => {
    const create = await cli.ward([
      'token',
      'create',
      '-policy=default',
      '-ttl=1h',
      '-metadata=team=ops',
      '-format=json',
    ]);
    assert.equal(create.code, 0, create.stderr);
    const { client_token: token, accessor } = JSON.parse(create.stdout).auth;
    const table = await cli.ward(['token', 'create', '-policy=default', '-display-name=ci']);
    assert.match(table.stdout, /^token\s+\S+$/m);
    assert.match(table.stdout, /^token_policies\s+\[default\]$/m);
    assert.match((await cli.ward(['token', 'create', '-field=token'])).stdout, /^\S+\n$/);

    const lookup = await cli.ward(['token', 'lookup', token]);
    assert.equal(lookup.code, 0, lookup.stderr);
    assert.match(lookup.stdout, /^policies\s+\[default\]$/m);
    assert.match(lookup.stdout, /^meta\s+map\[team:ops\]$/m);
    assert.equal(
      (await cli.ward(['token', 'lookup', '-accessor', '-field=accessor', accessor])).stdout,
      `${accessor}\n`,
    );
    assert.match((await cli.ward(['token', 'lookup'])).stdout, /^policies\s+\[root\]$/m, 'no argument: the own token');
    assert.match((await runWardInProcess(['token', 'lookup'], { ...cli.env, VAULT_TOKEN: token })).stdout, /^id\s+/m);

    const renew = await cli.ward(['token', 'renew', '-increment=30m', token]);
    assert.equal(renew.code, 0, renew.stderr);
    assert.match(renew.stdout, /^token_duration\s+30m$/m);
    const self = await runWardInProcess(['token', 'renew', '-format=json'], { ...cli.env, VAULT_TOKEN: token });
    assert.equal(JSON.parse(self.stdout).auth.client_token, token);

    const revoke = await cli.ward(['token', 'revoke', token]);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.match(revoke.stdout, /Success! Revoked token \(if it existed\)/);
    const dead = await runWardInProcess(['token', 'lookup'], { ...cli.env, VAULT_TOKEN: token });
    assert.equal(dead.code, 2);
    assert.match(dead.stderr, /Code: 403/);

    const other = JSON.parse((await cli.ward(['token', 'create', '-format=json'])).stdout).auth;
    assert.equal((await cli.ward(['token', 'revoke', '-accessor', other.accessor])).code, 0);
    assert.equal(
      (await runWardInProcess(['token', 'lookup'], { ...cli.env, VAULT_TOKEN: other.client_token })).code,
      2,
    );
    const mine = JSON.parse((await cli.ward(['token', 'create', '-format=json'])).stdout).auth.client_token;
    assert.equal((await runWardInProcess(['token', 'revoke', '-self'], { ...cli.env, VAULT_TOKEN: mine })).code, 0);
    assert.equal((await runWardInProcess(['token', 'lookup'], { ...cli.env, VAULT_TOKEN: mine })).code, 2);
  });

  it('uses the token_helper of ~/.vault as established: store on login, get on every command (issue 35)', async () => {
    const home = await tempHome();
    const stored = join(home, 'helper-store');
    const helper = join(home, 'helper.sh');
    await writeFile(
      helper,
      `#!/bin/sh\ncase "$1" in get) cat "${stored}" 2>/dev/null || true;; store) cat > "${stored}";; erase) rm -f "${stored}";; esac\n`,
      { mode: 0o700 },
    );
    await writeFile(join(home, '.vault'), `token_helper = "${helper}"\n`);
    const env = { VAULT_ADDR: cli.server.url, HOME: home };
    assert.equal((await runWardInProcess(['login', cli.server.rootToken], env)).code, 0);
    assert.equal(await readFile(stored, 'utf8'), cli.server.rootToken);
    await assert.rejects(readFile(join(home, '.vault-token')), { code: 'ENOENT' });
    const lookup = await runWardInProcess(['token', 'lookup', '-field=id'], env);
    assert.equal(lookup.stdout, `${cli.server.rootToken}\n`, lookup.stderr);
  });

  it('login -method=token saves the token to ~/.vault-token (0600), used when VAULT_TOKEN is unset', async () => {
    const home = await tempHome();
    const token = JSON.parse((await cli.ward(['token', 'create', '-policy=default', '-format=json'])).stdout).auth
      .client_token;
    const noToken = { VAULT_ADDR: cli.server.url, HOME: home };
    assert.equal((await runWardInProcess(['token', 'lookup'], noToken)).code, 2, 'no token yet');

    const login = await runWardInProcess(['login', token], noToken);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stdout, /Success! You are now authenticated/);
    assert.match(login.stdout, /^token_policies\s+\[default\]$/m);
    const file = join(home, '.vault-token');
    assert.equal(await readFile(file, 'utf8'), token);
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const lookup = await runWardInProcess(['token', 'lookup', '-field=id'], noToken);
    assert.equal(lookup.stdout, `${token}\n`, 'the saved token is used');
    const override = await runWardInProcess(['token', 'lookup', '-field=id'], {
      ...noToken,
      VAULT_TOKEN: cli.server.rootToken,
    });
    assert.equal(override.stdout, `${cli.server.rootToken}\n`, 'VAULT_TOKEN wins over the file');

    await writeFile(file, 'old', { mode: 0o644 });
    assert.equal((await runWardInProcess(['login', '-'], noToken, `${cli.server.rootToken}\n`)).code, 0);
    assert.equal(await readFile(file, 'utf8'), cli.server.rootToken);
    assert.equal((await stat(file)).mode & 0o777, 0o600, 'an existing file is narrowed to 0600');

    const bad = await runWardInProcess(['login', 'not-a-token'], noToken);
    assert.equal(bad.code, 2);
    assert.equal(await readFile(file, 'utf8'), cli.server.rootToken, 'a failed login keeps the old token');
  });

  it('fails clearly: exit 2 for usage errors (issue 21 point 12) and for API errors', async () => {
    const unknown = await cli.ward(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^Error: unknown command "frobnicate"/);
    const badFlag = await cli.ward(['kv', 'get', '-bogus', 'secret/x']);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /flag provided but not defined: -bogus/);
    const missing = await cli.ward(['kv', 'get']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /expected 1 argument\(s\), got 0\nRun "ward kv get -help"/);
    const group = await cli.ward(['kv']);
    assert.equal(group.code, 2);
    assert.match(group.stderr, /kv get/);
    const help = await cli.ward(['kv', 'put', '-help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /-cas=VALUE/);
    const format = await cli.ward(['status', '-format=xml']);
    assert.equal(format.code, 2);

    const denied = await runWardInProcess(['read', 'secret/data/x'], { ...cli.env, VAULT_TOKEN: 'wrong' });
    assert.equal(denied.code, 2);
    assert.match(denied.stderr, /Code: 403\. Errors:\n\n\* permission denied/);
    const limited = JSON.parse((await cli.ward(['token', 'create', '-policy=default', '-format=json'])).stdout).auth;
    const kv = await runWardInProcess(['kv', 'get', 'secret/x'], { ...cli.env, VAULT_TOKEN: limited.client_token });
    assert.equal(kv.code, 2);
    assert.match(kv.stderr, /cannot tell which KV mount serves "secret\/x": preflight capability check returned 403/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = await runWardInProcess(['status'], { ...cli.env, VAULT_ADDR: `http://127.0.0.1:${port}` });
    assert.equal(down.code, 2);
    assert.match(down.stderr, new RegExp(`^Error: GET http://127.0.0.1:${port}/v1/sys/seal-status: .*ECONNREFUSED`));
  });
});

describe('ward login -method=userpass', () => {
  // The server has no userpass method yet: this runs the CLI against a stand-in that answers
  // the documented API (POST auth/<mount>/login/<username>); re-test against the real one later.
  it('posts the password to auth/<path>/login/<username> and saves the token it returns', async () => {
    const seen: Array<{ method?: string; url?: string; body: string; headers: IncomingMessage['headers'] }> = [];
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, headers: req.headers });
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            auth: {
              client_token: 's.fromuserpass',
              accessor: 'acc',
              policies: ['default', 'dev'],
              lease_duration: 3600,
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const home = await tempHome();
      const env = { VAULT_ADDR: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, HOME: home };
      const login = await runWardInProcess(
        ['login', '-method=userpass', '-path=people', 'username=alice', 'password=pw'],
        env,
      );
      assert.equal(login.code, 0, login.stderr);
      assert.match(login.stdout, /^token_duration\s+1h$/m);
      assert.equal(seen[0]?.method, 'PUT');
      assert.equal(seen[0]?.url, '/v1/auth/people/login/alice');
      assert.deepEqual(JSON.parse(seen[0]?.body ?? ''), { password: 'pw' });
      assert.equal(seen[0]?.headers['x-vault-request'], 'true');
      assert.equal(await readFile(join(home, '.vault-token'), 'utf8'), 's.fromuserpass');
      const noPassword = await runWardInProcess(['login', '-method=userpass', 'username=alice'], env);
      assert.equal(noPassword.code, 2);
    } finally {
      fake.close();
    }
  });
});
