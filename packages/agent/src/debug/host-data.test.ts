import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectHostData, redactEnvironment } from './host-data.js';

describe('host data', () => {
  it('redacts the deny list and names with TOKEN or SECRET, and keeps the rest', () => {
    const env = redactEnvironment({
      NOMAD_TOKEN: 'a',
      AWS_ACCESS_KEY_ID: 'b',
      my_secret_thing: 'c',
      GITHUB_TOKEN_X: 'd',
      DB_PASSWORD: 'e',
      PATH: '/bin',
    });
    assert.deepEqual(env, {
      NOMAD_TOKEN: '<redacted>',
      AWS_ACCESS_KEY_ID: '<redacted>',
      my_secret_thing: '<redacted>',
      GITHUB_TOKEN_X: '<redacted>',
      DB_PASSWORD: 'e',
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
