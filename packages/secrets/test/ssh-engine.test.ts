import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { run, Sshd } from './sshd.js';

describe('ssh engine: certificates that a real sshd accepts', () => {
  let t: TestServer;
  let sshd: Sshd;
  before(async () => {
    t = await startTestServer({ clock: new FakeClock(Date.now()) });
    assert.equal((await t.request('POST', 'sys/mounts/ssh', { body: { type: 'ssh' } })).status, 204);
    const ca = await t.request('POST', 'ssh/config/ca', { body: { generate_signing_key: true } });
    assert.equal(ca.status, 200);
    assert.match(ca.body.data.public_key, /^ssh-rsa AAAA/);
    // The public key needs no token.
    const published = await fetch(`${t.url}/v1/ssh/public_key`);
    assert.equal(published.status, 200);
    const caPublic = await published.text();
    assert.equal(caPublic.trim(), ca.body.data.public_key.trim());
    sshd = await Sshd.start(caPublic);
  });
  after(async () => {
    await sshd?.stop();
    await t?.stop();
  });

  it('signs a user key: ssh-keygen -L shows the principals and extensions, and sshd lets it log in', async () => {
    const user = Sshd.user;
    const role = {
      key_type: 'ca',
      allow_user_certificates: true,
      allowed_users: `${user},other`,
      default_user: user,
      allowed_extensions: 'permit-pty,permit-port-forwarding',
      default_extensions: { 'permit-pty': '' },
      allowed_critical_options: 'force-command',
      ttl: '30m',
      max_ttl: '1h',
    };
    assert.equal((await t.request('POST', 'ssh/roles/dev', { body: role })).status, 204);
    const read = (await t.request('GET', 'ssh/roles/dev')).body.data;
    assert.equal(read.key_type, 'ca');
    assert.equal(read.allowed_users, `${user},other`);
    assert.deepEqual(read.default_extensions, { 'permit-pty': '' });

    const keyPath = join(sshd.dir, 'id_ed25519');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyPath]);
    const publicKey = await readFile(`${keyPath}.pub`, 'utf8');
    const signed = await t.request('POST', 'ssh/sign/dev', { body: { public_key: publicKey, valid_principals: user } });
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.match(signed.body.data.signed_key, /^ssh-ed25519-cert-v01@openssh\.com /);
    assert.match(signed.body.data.serial_number, /^[0-9a-f]+$/);
    const certPath = `${keyPath}-cert.pub`;
    await writeFile(certPath, signed.body.data.signed_key);

    const { stdout: listing } = await run('ssh-keygen', ['-L', '-f', certPath]);
    assert.match(listing, /Type: ssh-ed25519-cert-v01@openssh\.com user certificate/);
    assert.match(listing, /Signing CA: RSA SHA256:\S+ \(using rsa-sha2-256\)/);
    assert.match(listing, /Key ID: "vault-root-[0-9a-f]{64}"/);
    assert.match(listing, new RegExp(`Principals: \\n\\s+${user}\\n`));
    assert.match(listing, /Critical Options: \(none\)/);
    assert.match(listing, /Extensions: \n\s+permit-pty\n/);
    const serial = BigInt(`0x${signed.body.data.serial_number}`).toString();
    assert.match(listing, new RegExp(`Serial: ${serial}\\n`));

    const login = await sshd.login(user, keyPath, certPath);
    assert.equal(login.code, 0, `${login.stderr}\n${sshd.output()}`);
    assert.equal(login.stdout.trim(), 'logged-in');

    // A certificate for another principal does not log in as this user.
    const otherSigned = await t.request('POST', 'ssh/sign/dev', {
      body: { public_key: publicKey, valid_principals: 'other' },
    });
    const otherPath = join(sshd.dir, 'other-cert.pub');
    await writeFile(otherPath, otherSigned.body.data.signed_key);
    assert.equal((await sshd.login(user, keyPath, otherPath)).code, 255);

    // Critical options reach sshd: force-command replaces the command asked for.
    const forced = await t.request('POST', 'ssh/sign/dev', {
      body: {
        public_key: publicKey,
        critical_options: { 'force-command': 'echo forced' },
        extensions: { 'permit-pty': '' },
      },
    });
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    const forcedPath = join(sshd.dir, 'forced-cert.pub');
    await writeFile(forcedPath, forced.body.data.signed_key);
    assert.match((await run('ssh-keygen', ['-L', '-f', forcedPath])).stdout, /force-command echo forced/);
    assert.equal((await sshd.login(user, keyPath, forcedPath, 'echo mine')).stdout.trim(), 'forced');
  });

  it('refuses what the role does not allow', async () => {
    const keyPath = join(sshd.dir, 'id_ed25519');
    const publicKey = await readFile(`${keyPath}.pub`, 'utf8');
    const refused = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', 'ssh/sign/dev', { body: { public_key: publicKey, ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
    };
    await refused({ valid_principals: 'mallory' });
    await refused({ cert_type: 'host' });
    await refused({ extensions: { 'permit-X11-forwarding': '' } });
    await refused({ critical_options: { 'source-address': '10.0.0.0/8' } });
    await refused({ key_id: 'chosen' });
    await refused({ public_key: 'not a key' });
  });

  it('issue/:role makes a key pair whose certificate logs in', async () => {
    const issued = await t.request('POST', 'ssh/issue/dev', { body: { key_type: 'ed25519' } });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(issued.body.data.private_key_type, 'ed25519');
    const keyPath = join(sshd.dir, 'issued');
    await writeFile(keyPath, issued.body.data.private_key, { mode: 0o600 });
    await writeFile(`${keyPath}-cert.pub`, issued.body.data.signed_key);
    const login = await sshd.login(Sshd.user, keyPath, `${keyPath}-cert.pub`);
    assert.equal(login.code, 0, login.stderr);
  });
});
