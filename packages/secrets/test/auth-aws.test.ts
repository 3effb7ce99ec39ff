import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src/server/testing.js';
import { type AwsAuthFixture, startAwsAuth } from './aws-auth.testing.js';
import { iamLoginFields } from './aws-signing.js';
import type { FakeAws } from './fakes/aws-iam-sts.js';

// Issue 37: the aws auth method against a wire-level IAM/STS/EC2 (SigV4-verified, XML answers)
// through the real SDKs; iam logins forward the client's signed request to it. The ec2 logins
// are in auth-aws-ec2.test.ts.

describe('AWS auth method', () => {
  let f: AwsAuthFixture;
  let t: TestServer;
  let aws: FakeAws;
  let alice: ReturnType<FakeAws['addUser']>;
  const ok: AwsAuthFixture['ok'] = (...args) => f.ok(...args);
  const login: AwsAuthFixture['login'] = (body) => f.login(body);
  const status: AwsAuthFixture['status'] = (body) => f.status(body);

  before(async () => {
    f = await startAwsAuth((fake) => {
      alice = fake.addUser('alice', '/team/');
      fake.addUser('bob');
    });
    ({ t, aws } = f);
  });
  after(() => f.stop());

  it('keeps the client config without showing the secret key, and checks identity config', async () => {
    await ok('POST', 'sys/auth/aws-empty', { type: 'aws' });
    assert.equal((await t.request('GET', 'auth/aws-empty/config/client')).status, 404);
    const data = (await ok('GET', 'auth/aws/config/client')).data;
    assert.equal(data.sts_endpoint, aws.endpoint);
    assert.equal(data.secret_key, undefined);
    assert.equal(
      (await t.request('POST', 'auth/aws/config/client', { body: { sts_endpoint: 'ftp://x' } })).status,
      400,
    );
    await ok('POST', 'auth/aws/config/identity', { iam_alias: 'full_arn', iam_metadata: ['client_arn', 'account_id'] });
    assert.deepEqual((await ok('GET', 'auth/aws/config/identity')).data.iam_metadata, ['account_id', 'client_arn']);
    const bad = await t.request('POST', 'auth/aws/config/identity', { body: { iam_metadata: 'nope' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0], /contains an unavailable field, please select from/);
  });

  it('refuses roles the established method refuses', async () => {
    const refusals: Record<string, unknown>[] = [
      { auth_type: 'iam' },
      { auth_type: 'ec2', bound_iam_principal_arn: alice.arn },
      { auth_type: 'iam', bound_ami_id: 'ami-1' },
      { auth_type: 'iam', bound_iam_principal_arn: alice.arn, role_tag: 'VaultRole' },
      { auth_type: 'iam', bound_iam_principal_arn: 'not-an-arn' },
      { auth_type: 'nope', bound_ami_id: 'ami-1' },
    ];
    for (const body of refusals)
      assert.equal((await t.request('POST', 'auth/aws/role/bad', { body })).status, 400, JSON.stringify(body));
  });

  it('logs an IAM user in with a signed GetCallerIdentity, bound by its unique id', async () => {
    aws.calls.length = 0;
    await ok('POST', 'auth/aws/role/dev', {
      auth_type: 'iam',
      bound_iam_principal_arn: alice.arn,
      token_policies: 'dev',
      token_ttl: '20m',
    });
    assert.deepEqual(aws.calls, ['iam:GetUser']);
    const role = (await ok('GET', 'auth/aws/role/dev')).data;
    assert.deepEqual(role.bound_iam_principal_id, [alice.userId]);
    assert.equal(role.hmac_key, undefined);
    const res = await login(await iamLoginFields(alice, aws.endpoint, { role: 'dev' }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { auth } = res.body;
    assert.deepEqual(auth.policies, ['default', 'dev']);
    assert.equal(auth.lease_duration, 1200);
    assert.deepEqual(auth.metadata, {
      role: 'dev',
      role_id: role.role_id,
      account_id: aws.account,
      client_arn: alice.arn,
    });
    const self = (await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token })).body.data;
    assert.equal(self.display_name, 'aws-alice');
    // The alias is the full ARN (config/identity above).
    const entity = (await ok('GET', `identity/entity/id/${self.entity_id}`)).data;
    assert.equal(entity.aliases[0].name, alice.arn);
  });

  it('refuses with 403 forged, expired and unbound signatures, and with 400 what is not GetCallerIdentity', async () => {
    const forged = { ...alice, secretAccessKey: 'not-the-secret' };
    assert.match(
      await status(await iamLoginFields(forged, aws.endpoint, { role: 'dev' })),
      /^403 .*SignatureDoesNotMatch/,
    );
    const old = new Date(Date.now() - 20 * 60 * 1000);
    assert.match(
      await status(await iamLoginFields(alice, aws.endpoint, { role: 'dev', signingDate: old })),
      /^403 .*expired/,
    );
    const unknown = { accessKeyId: 'AKIANOTAKEY', secretAccessKey: 'x' };
    assert.match(
      await status(await iamLoginFields(unknown, aws.endpoint, { role: 'dev' })),
      /^403 .*InvalidClientTokenId/,
    );
    const bob = aws.addUser('bob2');
    assert.match(
      await status(await iamLoginFields(bob, aws.endpoint, { role: 'dev' })),
      /^403 .*does not belong to the role/,
    );
    const other = await iamLoginFields(alice, aws.endpoint, {
      role: 'dev',
      body: 'Action=GetSessionToken&Version=2011-06-15',
    });
    assert.match(await status(other), /^400 /);
    // A header the signature does not cover is refused unless allowed by name.
    const smuggled = await iamLoginFields(alice, aws.endpoint, {
      role: 'dev',
      unsignedHeaders: { 'x-forwarded-for': '1.2.3.4' },
    });
    assert.match(await status(smuggled), /^400 invalid request header: x-forwarded-for/);
    await ok('POST', 'auth/aws/config/client', { allowed_sts_header_values: 'X-Forwarded-For' });
    assert.equal((await login(smuggled)).status, 200);
    await ok('POST', 'auth/aws/config/client', { allowed_sts_header_values: '' });
    // A login signed correctly but whose body was changed afterwards fails STS's check.
    const swapped = await iamLoginFields(alice, aws.endpoint, { role: 'dev' });
    swapped.iam_request_body = Buffer.from('Version=2011-06-15&Action=GetCallerIdentity').toString('base64');
    assert.match(await status(swapped), /^403 /);
  });

  it('answers 502 when STS fails or cannot be reached', async () => {
    aws.failing.add('GetCallerIdentity');
    try {
      assert.match(await status(await iamLoginFields(alice, aws.endpoint, { role: 'dev' })), /^502 /);
    } finally {
      aws.failing.delete('GetCallerIdentity');
    }
    await ok('POST', 'auth/aws/config/client', { sts_endpoint: 'http://127.0.0.1:1/' });
    try {
      assert.match(await status(await iamLoginFields(alice, aws.endpoint, { role: 'dev' })), /^502 /);
    } finally {
      await ok('POST', 'auth/aws/config/client', { sts_endpoint: aws.endpoint });
    }
  });

  it('needs the configured server id header, signed', async () => {
    await ok('POST', 'auth/aws/config/client', { iam_server_id_header_value: 'ward.example.com' });
    try {
      assert.match(await status(await iamLoginFields(alice, aws.endpoint, { role: 'dev' })), /^403 /);
      const unsigned = await iamLoginFields(alice, aws.endpoint, { role: 'dev', unsignedServerId: 'ward.example.com' });
      assert.match(await status(unsigned), /^403 .*not signed/);
      const wrong = await iamLoginFields(alice, aws.endpoint, { role: 'dev', serverId: 'other.example.com' });
      assert.match(await status(wrong), /^403 /);
      const right = await iamLoginFields(alice, aws.endpoint, { role: 'dev', serverId: 'ward.example.com' });
      assert.equal((await login(right)).status, 200);
    } finally {
      await ok('POST', 'auth/aws/config/client', { iam_server_id_header_value: '' });
    }
  });

  it('binds assumed-role sessions by their role, and infers instances from them', async () => {
    const role = aws.addRole('app-role', '/apps/');
    aws.addInstance({ instanceId: 'i-0aaa', imageId: 'ami-good', region: 'eu-west-1', vpcId: 'vpc-1' });
    aws.addInstance({ instanceId: 'i-0bbb', imageId: 'ami-bad', region: 'eu-west-1' });
    await ok('POST', 'auth/aws/role/app', {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${aws.account}:role/app-*`,
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: 'eu-west-1',
      bound_ami_id: 'ami-good',
      token_policies: 'dev',
    });
    assert.deepEqual((await ok('GET', 'auth/aws/role/app')).data.bound_iam_principal_id, ['']);
    const res = await login(await iamLoginFields(aws.roleSession('app-role', 'i-0aaa'), aws.endpoint, { role: 'app' }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(
      await status(await iamLoginFields(aws.roleSession('app-role', 'i-0bbb'), aws.endpoint, { role: 'app' })),
      /^403 .*bound_ami_id/,
    );
    assert.match(
      await status(await iamLoginFields(aws.roleSession('app-role', 'i-0ccc'), aws.endpoint, { role: 'app' })),
      /^403 /,
    );
    void role;
  });
});
