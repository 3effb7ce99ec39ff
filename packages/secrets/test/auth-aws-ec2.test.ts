import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import type { TestServer } from '../src/server/testing.js';
import { type AwsAuthFixture, startAwsAuth } from './aws-auth.testing.js';
import type { FakeAws } from './fakes/aws-iam-sts.js';
import { createIdentitySigner } from './fakes/ec2-identity.js';

// Issue 37: ec2 logins of the aws auth method, with instance identity documents signed by a test
// certificate (and one AWS signed), against a wire-level EC2.

describe('AWS auth method: ec2 logins', () => {
  let f: AwsAuthFixture;
  let t: TestServer;
  let aws: FakeAws;
  const signer = createIdentitySigner();
  const ok: AwsAuthFixture['ok'] = (...args) => f.ok(...args);
  const login: AwsAuthFixture['login'] = (body) => f.login(body);
  const status: AwsAuthFixture['status'] = (body) => f.status(body);
  const doc = { instanceId: 'i-0ec2', imageId: 'ami-ec2', accountId: '123456789012', region: 'us-west-2' };
  before(async () => {
    f = await startAwsAuth();
    ({ t, aws } = f);
    await ok('POST', 'auth/aws/config/certificate/test', { aws_public_cert: signer.certificatePem });
    aws.addInstance({ ...doc, vpcId: 'vpc-9', subnetId: 'subnet-9', tags: {} });
    await ok('POST', 'auth/aws/role/web', {
      auth_type: 'ec2',
      bound_ami_id: 'ami-ec2',
      bound_vpc_id: 'vpc-9',
      token_policies: 'dev',
    });
  });

  it('lists the certificate and refuses one that is not PEM', async () => {
    assert.deepEqual((await ok('LIST', 'auth/aws/config/certificates')).data.keys, ['test']);
    assert.equal((await ok('GET', 'auth/aws/config/certificate/test')).data.type, 'pkcs7');
    const bad = await t.request('POST', 'auth/aws/config/certificate/x', { body: { aws_public_cert: 'nope' } });
    assert.equal(bad.status, 400);
  });

  it('logs a running instance in with its signed document and keeps its nonce', async () => {
    const first = await login({ role: 'web', pkcs7: signer.pkcs7(doc) });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const { metadata } = first.body.auth;
    assert.equal(metadata.account_id, doc.accountId);
    assert.equal(metadata.auth_type, 'ec2');
    assert.ok(metadata.nonce);
    assert.match(await status({ role: 'web', pkcs7: signer.pkcs7(doc) }), /^403 .*nonce/);
    assert.match(await status({ role: 'web', pkcs7: signer.pkcs7(doc), nonce: 'guess' }), /^403 .*nonce/);
    const again = await login({ role: 'web', pkcs7: signer.pkcs7(doc), nonce: metadata.nonce });
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });

  it('verifies a document AWS signed (BER, DSA) with the built-in AWS certificate', async () => {
    // An instance identity document as the metadata service served it in 2018 (published in
    // cloud-init's documentation): indefinite lengths, the content in chunks, a DSA signature.
    const real = readFileSync(new URL('../../test/fixtures/aws/ec2-identity-pkcs7.txt', import.meta.url), 'utf8');
    aws.addInstance({ instanceId: 'i-075f088c72ad3271c', imageId: 'ami-079638aae7046bdd2', region: 'us-east-2' });
    await ok('POST', 'auth/aws/role/real', {
      auth_type: 'ec2',
      bound_account_id: '437526006925',
      token_policies: 'dev',
    });
    const res = await login({ role: 'real', pkcs7: real });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.account_id, '437526006925');
    // One character of the document changed ("t2.micro" → "t2.macro"): the digest no longer matches.
    const der = Buffer.from(real.replace(/\s/g, ''), 'base64');
    der[der.indexOf(Buffer.from('t2.micro')) + 4] = 'a'.charCodeAt(0);
    assert.match(await status({ role: 'real', pkcs7: der.toString('base64') }), /^403 /);
    // The same document with its SHA256-RSA signature, verified with the built-in identity certificate.
    const fixture = (name: string) =>
      readFileSync(new URL(`../../test/fixtures/aws/${name}`, import.meta.url), 'utf8').replace(/\s/g, '');
    const identity = fixture('ec2-identity-document.txt');
    const signature = fixture('ec2-identity-signature.txt');
    const nonce = res.body.auth.metadata.nonce;
    const again = await login({ role: 'real', identity, signature, nonce });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const forged = Buffer.from(signature, 'base64');
    forged.writeUInt8(forged.readUInt8(10) ^ 1, 10);
    assert.match(
      await status({ role: 'real', identity, signature: forged.toString('base64'), nonce }),
      /^403 .*verify/,
    );
  });

  it('refuses with 403 a document no known certificate signed, and unbound or stopped instances', async () => {
    const stranger = createIdentitySigner();
    assert.match(await status({ role: 'web', pkcs7: stranger.pkcs7(doc) }), /^403 .*verify/);
    // The content changed after signing: the signed digest no longer matches.
    const genuine = Buffer.from(signer.pkcs7(doc), 'base64');
    const at = genuine.indexOf(Buffer.from('i-0ec2'));
    genuine[at + 5] = 'X'.charCodeAt(0);
    assert.match(await status({ role: 'web', pkcs7: genuine.toString('base64') }), /^403 /);
    assert.match(await status({ role: 'web', pkcs7: 'bm90IHBrY3M3' }), /^400 /);
    aws.addInstance({ instanceId: 'i-0other', imageId: 'ami-ec2', region: 'us-west-2', vpcId: 'vpc-other' });
    assert.match(
      await status({ role: 'web', pkcs7: signer.pkcs7({ ...doc, instanceId: 'i-0other' }) }),
      /^403 .*bound_vpc_id/,
    );
    aws.addInstance({
      instanceId: 'i-0stopped',
      imageId: 'ami-ec2',
      region: 'us-west-2',
      vpcId: 'vpc-9',
      state: 'stopped',
    });
    assert.match(
      await status({ role: 'web', pkcs7: signer.pkcs7({ ...doc, instanceId: 'i-0stopped' }) }),
      /^403 .*running/,
    );
  });

  it('keeps an access list of instances, which a delete or a tidy past expiry empties', async () => {
    assert.ok((await ok('LIST', 'auth/aws/identity-accesslist')).data.keys.includes('i-0ec2'));
    const entry = (await ok('GET', 'auth/aws/identity-whitelist/i-0ec2')).data;
    assert.equal(entry.role, 'web');
    assert.equal(entry.client_nonce, undefined);
    const d = { ...doc, instanceId: 'i-0fresh' };
    aws.addInstance({ ...d, vpcId: 'vpc-9' });
    assert.equal((await login({ role: 'web', pkcs7: signer.pkcs7(d) })).status, 200);
    assert.match(await status({ role: 'web', pkcs7: signer.pkcs7(d) }), /^403 .*nonce/);
    await ok('DELETE', 'auth/aws/identity-accesslist/i-0fresh');
    assert.equal((await login({ role: 'web', pkcs7: signer.pkcs7(d) })).status, 200);
    await ok('POST', 'auth/aws/config/tidy/identity-accesslist', { safety_buffer: '1h' });
    assert.equal((await ok('GET', 'auth/aws/config/tidy/identity-accesslist')).data.safety_buffer, 3600);
    await ok('POST', 'auth/aws/tidy/identity-accesslist');
    assert.equal((await ok('GET', 'auth/aws/identity-accesslist/i-0fresh')).data.role, 'web');
    (t.clock as FakeClock).advance(40 * 24 * 3600 * 1000);
    await ok('POST', 'auth/aws/tidy/identity-accesslist');
    assert.equal((await t.request('GET', 'auth/aws/identity-accesslist/i-0fresh')).status, 404);
    assert.equal((await login({ role: 'web', pkcs7: signer.pkcs7(d) })).status, 200);
  });

  it('looks instances of an account with config/sts up as its role', async () => {
    const lookup = aws.addRole('ward-lookup');
    await ok('POST', `auth/aws/config/sts/${doc.accountId}`, { sts_role: lookup.arn });
    assert.deepEqual((await ok('LIST', 'auth/aws/config/sts')).data.keys, [doc.accountId]);
    assert.equal((await t.request('POST', 'auth/aws/config/sts/12', { body: { sts_role: lookup.arn } })).status, 400);
    try {
      const d = { ...doc, instanceId: 'i-0cross' };
      aws.addInstance({ ...d, vpcId: 'vpc-9' });
      aws.calls.length = 0;
      assert.equal((await login({ role: 'web', pkcs7: signer.pkcs7(d) })).status, 200);
      assert.deepEqual(aws.calls, ['sts:AssumeRole', 'ec2:DescribeInstances']);
      await ok('POST', `auth/aws/config/sts/${doc.accountId}`, {
        sts_role: `arn:aws:iam::${doc.accountId}:role/none`,
      });
      assert.match(await status({ role: 'web', pkcs7: signer.pkcs7({ ...doc, instanceId: 'i-0x' }) }), /^502 .*assume/);
    } finally {
      await ok('DELETE', `auth/aws/config/sts/${doc.accountId}`);
    }
  });

  it('binds instances by their instance profile and its role', async () => {
    aws.addRole('web-instance', '/apps/');
    const profile = aws.addInstanceProfile('web-profile', 'web-instance');
    aws.addRole('other-instance');
    const otherProfile = aws.addInstanceProfile('other-profile', 'other-instance');
    const d = { ...doc, imageId: 'ami-prof' };
    aws.addInstance({ ...d, instanceId: 'i-0prof', profileArn: profile });
    aws.addInstance({ ...d, instanceId: 'i-0noprof', profileArn: otherProfile });
    await ok('POST', 'auth/aws/role/by-profile', {
      auth_type: 'ec2',
      bound_iam_instance_profile_arn: `arn:aws:iam::${aws.account}:instance-profile/web-*`,
      bound_iam_role_arn: `arn:aws:iam::${aws.account}:role/apps/web-instance`,
    });
    const res = await login({ role: 'by-profile', pkcs7: signer.pkcs7({ ...d, instanceId: 'i-0prof' }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(
      await status({ role: 'by-profile', pkcs7: signer.pkcs7({ ...d, instanceId: 'i-0noprof' }) }),
      /^403 .*bound_iam_instance_profile_arn/,
    );
    await ok('POST', 'auth/aws/role/by-role', {
      auth_type: 'ec2',
      bound_iam_role_arn: `arn:aws:iam::${aws.account}:role/other-instance`,
    });
    assert.match(
      await status({ role: 'by-role', pkcs7: signer.pkcs7({ ...d, instanceId: 'i-0prof' }) }),
      /^403 .*bound_iam_role_arn/,
    );
  });

  it('answers 502 when EC2 fails', async () => {
    aws.failing.add('DescribeInstances');
    try {
      assert.match(await status({ role: 'web', pkcs7: signer.pkcs7({ ...doc, instanceId: 'i-0new' }) }), /^502 /);
    } finally {
      aws.failing.delete('DescribeInstances');
    }
  });

  it('honours role tags: narrower policies, and forged tags refused', async () => {
    await ok('PUT', 'sys/policies/acl/ops', { policy: 'path "secret/ops" { capabilities = ["read"] }' });
    await ok('POST', 'auth/aws/role/tagged', {
      auth_type: 'ec2',
      bound_ami_id: 'ami-tag',
      role_tag: 'VaultRole',
      token_policies: 'dev,ops',
    });
    const refused = await t.request('POST', 'auth/aws/role/tagged/tag', { body: { policies: 'admin' } });
    assert.equal(refused.status, 400);
    const tag = (await ok('POST', 'auth/aws/role/tagged/tag', { policies: 'ops' })).data;
    assert.equal(tag.tag_key, 'VaultRole');
    const tagged = { instanceId: 'i-0tag', imageId: 'ami-tag', accountId: '123456789012', region: 'us-west-2' };
    aws.addInstance({ ...tagged, tags: { VaultRole: tag.tag_value } });
    const res = await login({ role: 'tagged', pkcs7: signer.pkcs7(tagged) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['default', 'ops']);
    const forged = tag.tag_value.replace(':p=ops:', ':p=dev,ops:');
    aws.addInstance({ ...tagged, instanceId: 'i-0forged', tags: { VaultRole: forged } });
    assert.match(
      await status({ role: 'tagged', pkcs7: signer.pkcs7({ ...tagged, instanceId: 'i-0forged' }) }),
      /^403 .*role tag/,
    );
    // A deny-listed tag is refused until taken off the list.
    await ok('POST', `auth/aws/roletag-denylist/${tag.tag_value}`);
    assert.deepEqual((await ok('LIST', 'auth/aws/roletag-denylist')).data.keys, [tag.tag_value]);
    assert.ok((await ok('GET', `auth/aws/roletag-blacklist/${tag.tag_value}`)).data.expiration_time);
    const nonce = res.body.auth.metadata.nonce;
    assert.match(await status({ role: 'tagged', pkcs7: signer.pkcs7(tagged), nonce }), /^403 .*deny-listed/);
    await ok('DELETE', `auth/aws/roletag-denylist/${tag.tag_value}`);
    assert.equal((await login({ role: 'tagged', pkcs7: signer.pkcs7(tagged), nonce })).status, 200);
    assert.equal((await t.request('POST', `auth/aws/roletag-denylist/${forged}`)).status, 403);
    aws.addInstance({ ...tagged, instanceId: 'i-0untagged' });
    assert.match(
      await status({ role: 'tagged', pkcs7: signer.pkcs7({ ...tagged, instanceId: 'i-0untagged' }) }),
      /^403 .*tag/,
    );
  });
  after(() => f.stop());
});
