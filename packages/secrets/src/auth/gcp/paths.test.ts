import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError, UnsupportedOperationError } from '../../logical/errors.js';
import { createGcpBackend } from './backend.js';

// The gcp method's roles and config beside their code (issue 30 point 6); logins, which verify
// tokens Google signed, are tested against the Google fake over HTTP in test/auth-gcp*.test.ts.

const APP = 'app@my-project-1.iam.gserviceaccount.com';
const OTHER = 'other@other-project.iam.gserviceaccount.com';

async function gcp() {
  const t = await testBackend(createGcpBackend, { clock: new FakeClock('2030-01-01T00:00:00Z') });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const get = async (path: string): Promise<any> => (await t.read(path))?.data;
  return { t, get };
}

describe('gcp auth paths', () => {
  it('keeps iam roles; refuses roles without a type or service accounts, and a changed type', async () => {
    const { t, get } = await gcp();
    await t.write('role/app', {
      type: 'iam',
      bound_service_accounts: APP,
      bound_projects: 'my-project-1',
      token_policies: 'app',
      token_ttl: '30m',
    });
    const role = await get('role/app');
    assert.deepEqual(role.bound_service_accounts, [APP]);
    assert.equal(role.max_jwt_exp, 900);
    assert.equal(role.token_ttl, 1800);
    assert.deepEqual((await t.list('roles'))?.data?.keys, ['app']);
    const refused = [
      { type: 'iam' },
      { bound_service_accounts: APP },
      { type: 'hvac', bound_service_accounts: APP },
      { type: 'iam', bound_service_accounts: `*,${APP}` },
      { type: 'iam', bound_service_accounts: APP, bound_zones: 'us-central1-a' },
      { type: 'iam', bound_service_accounts: APP, max_jwt_exp: '2h' },
    ];
    for (const body of refused)
      await assert.rejects(t.write('role/bad', body), InvalidRequestError, JSON.stringify(body));
    await assert.rejects(t.write('role/app', { type: 'gce' }), {
      message: 'role type cannot be changed for an existing role',
    });
    // The established method has no delete of its config.
    await assert.rejects(t.delete('config'), UnsupportedOperationError);
  });

  it('keeps credentials for its API calls, reads back only the account and key id, refuses what is not a key file', async () => {
    const { t, get } = await gcp();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      type: 'service_account',
      project_id: 'my-project-1',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: 'ward@my-project-1.iam.gserviceaccount.com',
      client_id: '123',
    };
    await t.write('config', { credentials: JSON.stringify(key) });
    const read = await get('config');
    assert.equal(read.client_email, key.client_email);
    assert.equal(read.private_key_id, 'k1');
    assert.equal(read.project_id, 'my-project-1');
    assert.equal(JSON.stringify(read).includes('PRIVATE KEY'), false, 'the key is never read back');
    for (const credentials of ['some invalid JWT', JSON.stringify({ ...key, private_key: 'x' }), '[]']) {
      await assert.rejects(t.write('config', { credentials }), InvalidRequestError, credentials);
    }
    await t.write('config', { credentials: '' });
    assert.equal((await get('config')).client_email, undefined);
  });

  it("edits an iam role's service accounts and a gce role's labels in place", async () => {
    const { t, get } = await gcp();
    await t.write('role/edit-iam', { type: 'iam', bound_service_accounts: APP });
    await t.write('role/edit-iam/service-accounts', { add: [OTHER], remove: ['nobody'] });
    assert.deepEqual((await get('role/edit-iam')).bound_service_accounts, [APP, OTHER]);
    await t.write('role/edit-iam/service-accounts', { remove: APP });
    assert.deepEqual((await get('role/edit-iam')).bound_service_accounts, [OTHER]);
    await assert.rejects(t.write('role/edit-iam/service-accounts', {}), {
      message: 'must provide at least one value to add or remove',
    });
    await assert.rejects(t.write('role/edit-iam/labels', { add: 'a:b' }), InvalidRequestError);

    await t.write('role/edit-gce', { type: 'gce', project_id: 'my-project-1', bound_labels: 'team:a' });
    await t.write('role/edit-gce/labels', { add: ['env:prod', 'team:b'] });
    let gce = await get('role/edit-gce');
    assert.deepEqual(gce.bound_labels, { team: 'b', env: 'prod' });
    assert.deepEqual(gce.bound_projects, ['my-project-1']);
    await t.write('role/edit-gce/labels', { remove: 'team' });
    gce = await get('role/edit-gce');
    assert.deepEqual(gce.bound_labels, { env: 'prod' });
    await assert.rejects(t.write('role/edit-gce/labels', { add: 'novalue' }), InvalidRequestError);
    await assert.rejects(t.write('role/edit-gce', { bound_instance_groups: 'g' }), {
      message: 'region or zone information must be specified if an instance group is given',
    });
  });
});
