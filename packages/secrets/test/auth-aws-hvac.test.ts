import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAws, startFakeAws } from './fakes/aws-iam-sts.js';
import { type HvacSteps, runHvacScript } from './hvac-steps.js';

// Issue 37: hvac's own iam_login (python3-hvac signs GetCallerIdentity with its own SigV4 code,
// for sts.amazonaws.com, all headers signed) logs in through Ward, which forwards it to the fake STS.

const SERVER_ID = 'ward.example.com';

describe('hvac iam_login against the aws auth method', () => {
  let t: TestServer;
  let aws: FakeAws;
  let steps: HvacSteps;
  let carol: ReturnType<FakeAws['addUser']>;

  before(async () => {
    aws = await startFakeAws();
    t = await startTestServer();
    carol = aws.addUser('carol');
    await t.ok('POST', 'sys/auth/aws', { type: 'aws' });
    await t.ok('POST', 'auth/aws/config/client', { sts_endpoint: aws.endpoint, iam_endpoint: aws.endpoint });
    await t.ok('PUT', 'sys/policies/acl/dev', { policy: 'path "secret/*" { capabilities = ["read"] }' });
    await t.ok('POST', 'auth/aws/role/dev', {
      auth_type: 'iam',
      bound_iam_principal_arn: carol.arn,
      resolve_aws_unique_ids: false,
      token_policies: 'dev',
    });
    // No server id configured yet: logins with and without the header both pass.
    steps = await runHvacScript('hvac_aws.py', [t.url, carol.accessKeyId, carol.secretAccessKey, '', SERVER_ID]);
  });
  after(async () => {
    await t.stop();
    await aws.close();
  });

  it('logs in with the request hvac signed', () => {
    const login = steps.ok<{ policies: string[]; metadata: Record<string, string>; authenticated: boolean }>('login');
    assert.deepEqual(login.policies, ['default', 'dev']);
    assert.equal(login.metadata.auth_type, 'iam');
    assert.equal(login.authenticated, true);
    assert.ok(steps.ok('login_server_id'));
  });

  it('is refused with a wrong secret key (STS refuses the signature)', () => {
    assert.match(steps.failed('login_wrong_secret').errors.join(' '), /SignatureDoesNotMatch/);
  });

  it('checks the server id header once configured', async () => {
    await t.ok('POST', 'auth/aws/config/client', { iam_server_id_header_value: SERVER_ID });
    const rerun = await runHvacScript('hvac_aws.py', [t.url, carol.accessKeyId, carol.secretAccessKey, '', SERVER_ID]);
    assert.equal(rerun.failed('login').error, 'Forbidden');
    assert.ok(rerun.ok('login_server_id'));
    assert.equal(rerun.failed('login_wrong_server_id').error, 'Forbidden');
  });
});
