import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { createSshBackend } from './backend.js';

describe('ssh OTP roles', () => {
  it('issue OTPs for addresses the role serves; verify uses each up once; revoking removes it', async () => {
    const b = await testBackend(createSshBackend);
    await b.write('roles/web', {
      key_type: 'otp',
      default_user: 'deploy',
      cidr_list: '10.0.0.0/8',
      exclude_cidr_list: '10.9.0.0/16',
    });
    assert.deepEqual((await b.read('roles/web'))?.data, {
      allowed_users: '',
      cidr_list: '10.0.0.0/8',
      default_user: 'deploy',
      exclude_cidr_list: '10.9.0.0/16',
      key_type: 'otp',
      port: 22,
    });
    const issued = (await b.write('creds/web', { ip: '10.1.2.3' }))?.secret;
    assert.equal(issued?.data.username, 'deploy');
    assert.match(String(issued?.data.key), /^[0-9a-f]{8}-[0-9a-f]{4}-/);
    await assert.rejects(b.write('creds/web', { ip: '10.9.1.1' }), InvalidRequestError, 'excluded');
    await assert.rejects(b.write('creds/web', { ip: '192.168.1.1' }), InvalidRequestError, 'outside the role');
    await assert.rejects(b.write('creds/web', { ip: '10.1.2.3', username: 'root' }), InvalidRequestError);
    assert.deepEqual((await b.write('lookup', { ip: '10.1.2.3' }))?.data, { roles: ['web'] });

    const verified = await b.write('verify', { otp: issued?.data.key });
    assert.deepEqual(verified?.data, { username: 'deploy', ip: '10.1.2.3', role_name: 'web' });
    await assert.rejects(b.write('verify', { otp: issued?.data.key }), InvalidRequestError, 'used once');

    const second = (await b.write('creds/web', { ip: '10.1.2.4' }))?.secret;
    await b.backend.revokeSecret({ leaseId: 'l', type: 'secret_otp_type', internal: second?.internal ?? {} });
    await assert.rejects(b.write('verify', { otp: second?.data.key }), InvalidRequestError, 'revoked');
  });

  it('zero-address roles serve any address', async () => {
    const b = await testBackend(createSshBackend);
    await b.write('roles/any', { key_type: 'otp', default_user: 'ops' });
    await assert.rejects(b.write('creds/any', { ip: '1.2.3.4' }), InvalidRequestError);
    await assert.rejects(b.write('config/zeroaddress', { roles: 'missing' }), InvalidRequestError);
    await b.write('config/zeroaddress', { roles: 'any' });
    assert.deepEqual((await b.read('config/zeroaddress'))?.data, { roles: ['any'] });
    assert.equal((await b.write('creds/any', { ip: '1.2.3.4' }))?.secret?.data.ip, '1.2.3.4');
    await b.delete('config/zeroaddress');
    await assert.rejects(b.write('creds/any', { ip: '1.2.3.4' }), InvalidRequestError);
  });

  it('refuses roles the established engine refuses', async () => {
    const b = await testBackend(createSshBackend);
    await assert.rejects(b.write('roles/x', { default_user: 'a' }), InvalidRequestError, 'no key_type');
    await assert.rejects(b.write('roles/x', { key_type: 'dynamic', default_user: 'a' }), InvalidRequestError);
    await assert.rejects(b.write('roles/x', { key_type: 'otp' }), InvalidRequestError, 'no default_user');
    await assert.rejects(
      b.write('roles/x', { key_type: 'otp', default_user: 'a', cidr_list: '10.0.0.0/99' }),
      InvalidRequestError,
    );
    await assert.rejects(
      b.write('roles/x', { key_type: 'ca' }),
      InvalidRequestError,
      'neither user nor host certificates',
    );
    await b.write('roles/x', { key_type: 'ca', allow_user_certificates: true });
    const listed = JSON.parse(JSON.stringify((await b.list('roles/'))?.data));
    assert.deepEqual(listed, { keys: ['x'], key_info: { x: { key_type: 'ca' } } });
  });
});
