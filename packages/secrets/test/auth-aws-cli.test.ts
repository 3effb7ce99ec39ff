import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard, tempHome } from '../src/cli/testing.js';
import { awsClientConfig } from './aws-auth.testing.js';
import { type FakeAws, startFakeAws } from './fakes/aws-iam-sts.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 37: `ward login -method=aws` through the real CLI binary against bin/ward server -dev: the
// SDK's credential chain, a SigV4-signed GetCallerIdentity sent to the server, which forwards it to
// the wire-level STS.

describe('ward login -method=aws', () => {
  let dev: DevWard;
  let aws: FakeAws;
  let alice: ReturnType<FakeAws['addUser']>;
  const ok = (method: string, path: string, body?: unknown) => dev.ok(method, path, body);
  const lookupSelf = async (token: string) => (await dev.call('GET', 'auth/token/lookup-self', undefined, token)).body;
  /** The environment of a run: no IMDS, the fake STS, a fresh HOME; credentials as given. */
  const envFor = async (extra: Record<string, string> = {}) => ({
    VAULT_ADDR: dev.url,
    HOME: await tempHome(),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_STS: aws.endpoint,
    ...extra,
  });
  const keys = (user: { accessKeyId: string; secretAccessKey: string }) => ({
    AWS_ACCESS_KEY_ID: user.accessKeyId,
    AWS_SECRET_ACCESS_KEY: user.secretAccessKey,
  });

  before(async () => {
    aws = await startFakeAws();
    alice = aws.addUser('alice');
    const admin = aws.addUser('ward-admin');
    dev = await startDevWard('root');
    for (const path of ['aws', 'aws-team']) {
      await ok('POST', `sys/auth/${path}`, { type: 'aws' });
      await ok('POST', `auth/${path}/config/client`, awsClientConfig(aws, admin));
      await ok('POST', `auth/${path}/role/dev`, {
        auth_type: 'iam',
        bound_iam_principal_arn: alice.arn,
        token_policies: 'dev',
      });
    }
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await aws?.close();
  });

  it('logs in with the environment credentials and stores the token', async () => {
    const env = await envFor(keys(alice));
    const run = await runWard(['login', '-method=aws', '-format=json', 'role=dev'], env);
    assert.equal(run.code, 0, run.stderr);
    const { auth } = JSON.parse(run.stdout);
    assert.deepEqual(auth.token_policies, ['default', 'dev']);
    assert.equal((await readFile(join(env.HOME, '.vault-token'), 'utf8')).trim(), auth.client_token);
    assert.equal((await lookupSelf(auth.client_token)).data.display_name, 'aws-alice');
  });

  it('reads the shared profile, and logs in at mount=… or -path', async () => {
    const env = await envFor({ AWS_PROFILE: 'team' });
    await mkdir(join(env.HOME, '.aws'));
    const profile = `[team]\naws_access_key_id = ${alice.accessKeyId}\naws_secret_access_key = ${alice.secretAccessKey}\n`;
    await writeFile(join(env.HOME, '.aws', 'credentials'), profile);
    const byMount = await runWard(['login', '-method=aws', '-format=json', 'mount=aws-team', 'role=dev'], env);
    assert.equal(byMount.code, 0, byMount.stderr);
    const token = JSON.parse(byMount.stdout).auth.client_token;
    assert.equal((await lookupSelf(token)).data.path, 'auth/aws-team/login');
    const byPath = await runWard(['login', '-method=aws', '-path=aws-team', '-no-store', 'role=dev'], env);
    assert.equal(byPath.code, 0, byPath.stderr);
  });

  it('signs the server id header when header_value is given', async () => {
    await ok('POST', 'auth/aws/config/client', { iam_server_id_header_value: 'ward.example.com' });
    try {
      const env = await envFor(keys(alice));
      const without = await runWard(['login', '-method=aws', 'role=dev'], env);
      assert.equal(without.code, 2);
      assert.match(without.stderr, /Code: 403/);
      const wrong = await runWard(['login', '-method=aws', 'role=dev', 'header_value=other.example.com'], env);
      assert.equal(wrong.code, 2);
      const right = await runWard(['login', '-method=aws', 'role=dev', 'header_value=ward.example.com'], env);
      assert.equal(right.code, 0, right.stderr);
    } finally {
      await ok('POST', 'auth/aws/config/client', { iam_server_id_header_value: '' });
    }
  });

  it('refuses a forged signature with the 403 of STS, and stores nothing', async () => {
    const env = await envFor(keys({ ...alice, secretAccessKey: 'not-the-secret' }));
    const run = await runWard(['login', '-method=aws', 'role=dev'], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Code: 403/);
    const reasons = run.stderr.split('\n').filter((line) => line.startsWith('* '));
    assert.equal(reasons.length, 1, run.stderr);
    assert.match(reasons[0] ?? '', /SignatureDoesNotMatch/);
    await assert.rejects(readFile(join(env.HOME, '.vault-token')), { code: 'ENOENT' });
  });

  it('says in one line that no credentials were found', async () => {
    const env = await envFor();
    const run = await runWard(['login', '-method=aws', 'role=dev'], env);
    assert.equal(run.code, 2);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0] ?? '', /^Error: no AWS credentials found: set AWS_ACCESS_KEY_ID/);
    const half = await runWard(['login', '-method=aws', `aws_access_key_id=${alice.accessKeyId}`], env);
    assert.equal(half.code, 2, half.stderr);
    assert.match(half.stderr, /needs aws_secret_access_key/);
  });
});
