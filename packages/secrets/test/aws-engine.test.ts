import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeClock, SeededRandom } from '@ward/base';
import { createAwsBackend } from '../src/engines/aws/index.js';
import { testBackend } from '../src/framework/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { iamLoginFields } from './aws-signing.js';
import { type FakeAws, startFakeAws } from './fakes/aws-iam-sts.js';

// Issue 37: the aws secrets engine against a wire-level IAM/STS (SigV4-verified, XML answers)
// through the real SDKs. Credentials it hands out are checked by signing with them.

const POLICY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 'ec2:Describe*', Resource: '*' }],
});

describe('AWS secrets engine', () => {
  let t: TestServer;
  let aws: FakeAws;
  let root: ReturnType<FakeAws['addUser']>;
  /** Who AWS says signed with these credentials (STS GetCallerIdentity through the fake). */
  const whoAmI = async (creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) => {
    const fields = await iamLoginFields(creds, aws.endpoint);
    const res = await fetch(aws.endpoint, {
      method: 'POST',
      headers: JSON.parse(Buffer.from(fields.iam_request_headers ?? '', 'base64').toString()),
      body: Buffer.from(fields.iam_request_body ?? '', 'base64').toString(),
    });
    const text = await res.text();
    return { status: res.status, arn: /<Arn>([^<]+)<\/Arn>/.exec(text)?.[1] ?? '' };
  };
  const keysOf = (data: { access_key: string; secret_key: string; session_token?: string | null }) => ({
    accessKeyId: data.access_key,
    secretAccessKey: data.secret_key,
    ...(data.session_token ? { sessionToken: data.session_token } : {}),
  });

  before(async () => {
    aws = await startFakeAws();
    root = aws.addUser('ward-root');
    aws.addGroup('readers');
    t = await startTestServer();
    await t.ok('POST', 'sys/mounts/aws', { type: 'aws' });
    await t.ok('POST', 'aws/config/root', {
      access_key: root.accessKeyId,
      secret_key: root.secretAccessKey,
      iam_endpoint: aws.endpoint,
      sts_endpoint: aws.endpoint,
      max_retries: 0,
    });
  });
  after(async () => {
    await t.stop();
    await aws.close();
  });

  it('keeps config/root without showing the secret key, and config/lease as Go durations', async () => {
    assert.equal((await t.request('GET', 'aws/config/lease')).status, 404);
    const data = (await t.ok('GET', 'aws/config/root')).data;
    assert.equal(data.access_key, root.accessKeyId);
    assert.equal(data.secret_key, undefined);
    await t.ok('POST', 'aws/config/lease', { lease: '60s', lease_max: '2m' });
    assert.deepEqual((await t.ok('GET', 'aws/config/lease')).data, { lease: '1m0s', lease_max: '2m0s' });
    assert.equal((await t.request('POST', 'aws/config/lease', { body: { lease: '1m' } })).status, 400);
  });

  it('refuses roles the established engine refuses', async () => {
    const refusals: Record<string, unknown>[] = [
      { credential_type: 'cat' },
      { credential_type: 'iam_user', role_arns: 'arn:aws:iam::123456789012:role/x' },
      { credential_type: 'iam_user', default_sts_ttl: '1h' },
      { credential_type: 'assumed_role', user_path: '/x/' },
      { credential_type: 'session_token', policy_document: POLICY },
      { credential_type: 'iam_user', policy_document: 'not json' },
      { credential_type: 'assumed_role', default_sts_ttl: '2h', max_sts_ttl: '1h' },
    ];
    for (const body of refusals)
      assert.equal((await t.request('POST', 'aws/roles/bad', { body })).status, 400, JSON.stringify(body));
  });

  it('creates an IAM user with policies, groups and a working key; revoking the lease deletes it all', async () => {
    await t.ok('POST', 'aws/roles/deploy', {
      credential_type: 'iam_user',
      policy_arns: 'arn:aws:iam::aws:policy/ReadOnlyAccess',
      policy_document: POLICY,
      iam_groups: 'readers',
      user_path: '/ward/',
      iam_tags: ['team=platform'],
    });
    const role = (await t.ok('GET', 'aws/roles/deploy')).data;
    assert.equal(role.credential_type, 'iam_user');
    assert.equal(role.policy_document, POLICY);
    assert.deepEqual((await t.ok('LIST', 'aws/roles')).data.keys, ['deploy']);
    const res = await t.ok('GET', 'aws/creds/deploy');
    assert.equal(res.lease_duration, 60);
    assert.equal(res.renewable, true);
    const user = [...aws.users.values()].find((u) => u.keys.has(res.data.access_key));
    assert.ok(user, 'a user holds the key');
    assert.match(user.name, /^vault-root-deploy-\d+-[A-Za-z0-9]{20}$/);
    assert.equal(user.path, '/ward/');
    assert.deepEqual([...user.groups], ['readers']);
    assert.deepEqual([...user.attached], ['arn:aws:iam::aws:policy/ReadOnlyAccess']);
    assert.equal(user.inline.get('deploy'), POLICY);
    assert.equal(user.tags.get('team'), 'platform');
    assert.deepEqual(await whoAmI(keysOf(res.data)), {
      status: 200,
      arn: `arn:aws:iam::${aws.account}:user/ward/${user.name}`,
    });
    // Renewal stays within lease_max (2m).
    const renewed = await t.ok('PUT', 'sys/leases/renew', { lease_id: res.lease_id, increment: 3600 });
    assert.ok(renewed.lease_duration <= 120, JSON.stringify(renewed));
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(aws.users.has(user.name), false);
    assert.equal((await whoAmI(keysOf(res.data))).status, 403);
  });

  it('answers 502 when revoking fails, and deletes the user when revoked again', async () => {
    const res = await t.ok('GET', 'aws/creds/deploy');
    const name = [...aws.users.values()].find((u) => u.keys.has(res.data.access_key))?.name ?? '';
    aws.failing.add('DeleteUser');
    try {
      const failed = await t.request('PUT', 'sys/leases/revoke', { body: { lease_id: res.lease_id } });
      assert.equal(failed.status, 502, JSON.stringify(failed.body));
      assert.ok(aws.users.has(name));
    } finally {
      aws.failing.delete('DeleteUser');
    }
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(aws.users.has(name), false);
  });

  it('answers 502 when IAM refuses part of the user, and leaves no user behind', async () => {
    await t.ok('POST', 'aws/roles/broken', { credential_type: 'iam_user', policy_arns: 'arn:aws:iam::aws:nope' });
    const before = aws.users.size;
    const res = await t.request('GET', 'aws/creds/broken');
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.match(res.body.errors[0], /AttachUserPolicy/);
    assert.equal(aws.users.size, before);
    await t.ok('POST', 'aws/config/root', { iam_endpoint: 'http://127.0.0.1:1' });
    try {
      assert.equal((await t.request('GET', 'aws/creds/deploy')).status, 502);
    } finally {
      await t.ok('POST', 'aws/config/root', { iam_endpoint: aws.endpoint });
    }
  });

  it('issues assumed_role credentials for an allowed role ARN only', async () => {
    const role = aws.addRole('deployer');
    aws.addRole('other');
    await t.ok('POST', 'aws/roles/assume', {
      credential_type: 'assumed_role',
      role_arns: role.arn,
      policy_document: POLICY,
      default_sts_ttl: '15m',
      max_sts_ttl: '1h',
    });
    const res = await t.ok('POST', 'aws/sts/assume', { role_session_name: 'ci-run' });
    assert.equal(res.renewable, false);
    assert.equal(res.lease_duration, 900);
    assert.equal(res.data.arn, `arn:aws:sts::${aws.account}:assumed-role/deployer/ci-run`);
    assert.equal(res.data.security_token, res.data.session_token);
    assert.equal((await whoAmI(keysOf(res.data))).arn, res.data.arn);
    assert.equal((await t.ok('POST', 'aws/sts/assume', { ttl: '3h' })).lease_duration, 3600);
    const refused = await t.request('POST', 'aws/sts/assume', {
      body: { role_arn: `arn:aws:iam::${aws.account}:role/other` },
    });
    assert.equal(refused.status, 400);
    assert.equal((await t.request('POST', 'aws/sts/deploy')).status, 400);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
  });

  it('passes the inline and attached policies of iam_groups to STS with the role’s', async () => {
    const s3 = { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::logs/*' };
    aws.addGroup('auditors', {
      inline: { logs: JSON.stringify({ Version: '2012-10-17', Statement: s3 }) },
      attached: ['arn:aws:iam::aws:policy/SecurityAudit'],
    });
    aws.addRole('auditor');
    await t.ok('POST', 'aws/roles/audit', {
      credential_type: 'assumed_role',
      role_arns: `arn:aws:iam::${aws.account}:role/auditor`,
      policy_document: POLICY,
      policy_arns: 'arn:aws:iam::aws:policy/ReadOnlyAccess',
      iam_groups: 'auditors',
    });
    aws.stsPolicies.length = 0;
    const res = await t.ok('POST', 'aws/sts/audit');
    assert.match(res.data.arn, /assumed-role\/auditor\//);
    const [sent] = aws.stsPolicies;
    assert.deepEqual(JSON.parse(sent?.policy ?? '{}'), {
      Version: '2012-10-17',
      Statement: [...JSON.parse(POLICY).Statement, s3],
    });
    assert.deepEqual(sent?.policyArns, [
      'arn:aws:iam::aws:policy/ReadOnlyAccess',
      'arn:aws:iam::aws:policy/SecurityAudit',
    ]);
    assert.equal(
      (await t.request('POST', 'aws/roles/bad', { body: { credential_type: 'session_token', iam_groups: 'auditors' } }))
        .status,
      400,
    );
    await t.ok('POST', 'aws/roles/audit', { iam_groups: 'nobody' });
    assert.equal((await t.request('POST', 'aws/sts/audit')).status, 502);
  });

  it('issues federation tokens and session tokens', async () => {
    await t.ok('POST', 'aws/roles/fed', { credential_type: 'federation_token', policy_document: POLICY });
    const fed = await t.ok('GET', 'aws/creds/fed');
    assert.match(fed.data.arn, /^arn:aws:sts::\d+:federated-user\/vault-\d+-/);
    assert.equal((await whoAmI(keysOf(fed.data))).arn, fed.data.arn);
    await t.ok('POST', 'aws/roles/session', { credential_type: 'session_token', default_sts_ttl: '30m' });
    const session = await t.ok('GET', 'aws/creds/session');
    assert.equal(session.lease_duration, 1800);
    assert.equal((await whoAmI(keysOf(session.data))).arn, root.arn);
    aws.failing.add('GetSessionToken');
    try {
      assert.equal((await t.request('GET', 'aws/creds/session')).status, 502);
    } finally {
      aws.failing.delete('GetSessionToken');
    }
  });

  it('rotates the root key: the new one works, the old one is deleted', async () => {
    const res = await t.ok('POST', 'aws/config/rotate-root');
    assert.notEqual(res.data.access_key, root.accessKeyId);
    assert.equal((await t.ok('GET', 'aws/config/root')).data.access_key, res.data.access_key);
    assert.equal((await whoAmI(root)).status, 403);
    assert.deepEqual([...(aws.users.get('ward-root')?.keys ?? [])], [res.data.access_key]);
    // The engine works on with the new key.
    const creds = await t.ok('GET', 'aws/creds/deploy');
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: creds.lease_id });
  });
  it('keeps the user of a stored lease past the sweep of unfinished requests', async () => {
    await t.ok('POST', 'aws/config/lease', { lease: '1h', lease_max: '2h' });
    const res = await t.ok('GET', 'aws/creds/deploy');
    const name = [...aws.users.values()].find((u) => u.keys.has(res.data.access_key))?.name ?? '';
    (t.clock as FakeClock).advance(11 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    (t.clock as FakeClock).advance(20_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(aws.users.has(name), 'the sweep left the leased user alone');
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    await t.ok('POST', 'aws/config/lease', { lease: '60s', lease_max: '2m' });
  });

  it('deletes, after a restart, a user whose lease was never stored (its write-ahead record)', async () => {
    const first = await testBackend(createAwsBackend);
    const admin = aws.addUser('crash-admin');
    await first.write('config/root', {
      access_key: admin.accessKeyId,
      secret_key: admin.secretAccessKey,
      iam_endpoint: aws.endpoint,
      max_retries: 0,
    });
    await first.write('roles/crash', { credential_type: 'iam_user', policy_document: POLICY });
    // The handler made the user; no core stored the lease (as after a crash before it could).
    const issued = await first.read('creds/crash');
    const key = String(issued?.secret?.data.access_key);
    const name = [...aws.users.values()].find((u) => u.keys.has(key))?.name ?? '';
    assert.ok(aws.users.has(name));
    // Another process: its own instance id (the seeded randomness would repeat the first one's).
    const restarted = await testBackend(createAwsBackend, { storage: first.storage, random: new SeededRandom(2) });
    const sweep = restarted.backend.periodic.find((p) => p.name === 'sweep-users-wal');
    aws.failing.add('DeleteUser');
    await sweep?.run();
    assert.ok(aws.users.has(name), 'kept while IAM fails');
    aws.failing.delete('DeleteUser');
    await sweep?.run();
    assert.equal(aws.users.has(name), false);
    assert.deepEqual(await restarted.storage.list('wal/user/'), []);
  });
});
