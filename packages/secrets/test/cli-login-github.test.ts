import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard, tempHome } from '../src/cli/testing.js';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward login -method=github` as established: token=…, else VAULT_AUTH_GITHUB_TOKEN, else the
// terminal (one line of stdin); mount=… over -path. bin/ward against bin/ward server -dev,
// whose GitHub method asks the GitHub API fake.

const ORG = 7;

describe('ward login -method=github (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  let github: FakeGitHub;
  /** A run as a user without a token: the server's address and a home of its own. */
  const asUser = async (args: string[], extra: Record<string, string> = {}, stdin = '') => {
    const home = await tempHome();
    const run = await runWard(args, { VAULT_ADDR: dev.url, HOME: home, ...extra }, stdin);
    return { ...run, home };
  };
  const admin = async (...args: string[]) => {
    const run = await runWard(args, dev.env);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run;
  };

  before(async () => {
    github = await startFakeGitHub();
    github.addOrg('acme', ORG);
    github.addUser('ghp-alice', 'alice', [ORG], [{ name: 'SRE', slug: 'sre', orgId: ORG }]);
    dev = await startDevWard('root');
    for (const path of ['github', 'gh-team']) {
      await admin('auth', 'enable', `-path=${path}`, 'github');
      await admin('write', `auth/${path}/config`, 'organization=acme', `base_url=${github.baseUrl}`);
      await admin('write', `auth/${path}/map/teams/sre`, 'value=sre');
    }
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await github?.close();
  });

  it('logs in with token=…, prints the auth as JSON and stores the token', async () => {
    const run = await asUser(['login', '-method=github', '-format=json', 'token=ghp-alice']);
    assert.equal(run.code, 0, run.stderr);
    const { auth } = JSON.parse(run.stdout);
    assert.deepEqual(auth.token_policies, ['default', 'sre']);
    assert.equal(auth.metadata.username, 'alice');
    assert.equal((await readFile(join(run.home, '.vault-token'), 'utf8')).trim(), auth.client_token);
  });

  it('takes the token from VAULT_AUTH_GITHUB_TOKEN, and shows the table by default', async () => {
    const run = await asUser(['login', '-method=github'], { VAULT_AUTH_GITHUB_TOKEN: 'ghp-alice' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^token_policies\s+\[default sre\]$/m);
    assert.match(run.stdout, /^token_meta_username\s+alice$/m);
  });

  it('asks for the token when none is given (one line of stdin when not a terminal)', async () => {
    const run = await asUser(['login', '-method=github', '-field=token'], {}, 'ghp-alice\n');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), (await readFile(join(run.home, '.vault-token'), 'utf8')).trim());
  });

  it('logs in at mount=… (over -path) and at -path', async () => {
    const byMount = await asUser([
      'login',
      '-method=github',
      '-path=nowhere',
      '-format=json',
      'mount=gh-team',
      'token=ghp-alice',
    ]);
    assert.equal(byMount.code, 0, byMount.stderr);
    const token = JSON.parse(byMount.stdout).auth.client_token;
    const self = await runWard(['token', 'lookup', '-field=path'], {
      VAULT_ADDR: dev.url,
      VAULT_TOKEN: token,
      HOME: byMount.home,
    });
    assert.equal(self.stdout.trim(), 'auth/gh-team/login');
    const byPath = await asUser(['login', '-method=github', '-path=gh-team', '-no-store', 'token=ghp-alice']);
    assert.equal(byPath.code, 0, byPath.stderr);
  });

  it('refuses an unknown token with the server error, and stores nothing', async () => {
    const run = await asUser(['login', '-method=github', 'token=ghp-nobody']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Code: 403/);
    await assert.rejects(readFile(join(run.home, '.vault-token')), { code: 'ENOENT' });
  });

  it('refuses a method without a login helper (approle) before sending anything', async () => {
    const run = await asUser(['login', '-method=approle', 'role_id=x', 'secret_id=y']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Error: unknown auth method: approle/);
  });
});
