import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectHostData, redactEnvironment } from './host-data.js';

describe('host data', () => {
  // Issue 23 point 9: DB_PASSWORD and the like stayed visible.
  it('redacts the deny list and names with TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, PRIVATE_KEY or API_KEY', () => {
    const env = redactEnvironment({
      NOMAD_TOKEN: 'a',
      AWS_ACCESS_KEY_ID: 'b',
      my_secret_thing: 'c',
      GITHUB_TOKEN_X: 'd',
      DB_PASSWORD: 'e',
      ldap_passwd: 'f',
      AZURE_CREDENTIALS: 'g',
      TLS_PRIVATE_KEY: 'h',
      STRIPE_API_KEY: 'i',
      KEYBOARD: 'us',
      PATH: '/bin',
    });
    assert.deepEqual(env, {
      NOMAD_TOKEN: '<redacted>',
      AWS_ACCESS_KEY_ID: '<redacted>',
      my_secret_thing: '<redacted>',
      GITHUB_TOKEN_X: '<redacted>',
      DB_PASSWORD: '<redacted>',
      ldap_passwd: '<redacted>',
      AZURE_CREDENTIALS: '<redacted>',
      TLS_PRIVATE_KEY: '<redacted>',
      STRIPE_API_KEY: '<redacted>',
      KEYBOARD: 'us',
      PATH: '/bin',
    });
  });

  it('reports the real OS, interfaces, resolv.conf, hosts and the root disk', async () => {
    const h = await collectHostData({ PATH: '/bin' });
    assert.match(h.OS, /Linux/);
    assert.ok(h.Network.some((n) => n.address === '127.0.0.1' && n.type === 'IPv4'));
    assert.equal(typeof h.ResolvConf, 'string');
    assert.match(h.Hosts, /localhost/);
    assert.ok((h.Disk['/']?.DiskMB ?? 0) > 0);
    assert.ok((h.Disk['/']?.UsedMB ?? -1) >= 0);
  });
});
