import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { EtcdConfig } from '../storage/etcd/index.js';
import { loadConfigFile } from './config.js';

describe('server configuration file', () => {
  const load = async (text: string, name = 'ward.hcl') => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-config-'));
    try {
      await writeFile(join(dir, name), text);
      return await loadConfigFile(join(dir, name));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const listener = 'listener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n';

  it('takes `backend` as the legacy name of a storage block (hvac’s example configs use it), in HCL and JSON', async () => {
    // Issue 18: hvac's tests/config_files/vault-tls.hcl starts with `backend "inmem" {}`.
    assert.deepEqual((await load(`backend "inmem" {\n}\n${listener}`)).storage, { type: 'inmem', settings: {} });
    const json = { backend: { inmem: {} }, listener: { tcp: { address: '127.0.0.1:0', tls_disable: true } } };
    assert.equal((await load(JSON.stringify(json), 'ward.json')).storage.type, 'inmem');
  });

  it('refuses storage "raft" with one message naming the replicated storage Ward has and how to move data (issue 29)', async () => {
    const refusal = load(`storage "raft" {\n  path = "/var/raft"\n  node_id = "a"\n}\n${listener}`);
    await assert.rejects(refusal, (err: Error & { code?: string }) => {
      assert.equal(err.code, 'invalid_request');
      for (const word of ['"etcd"', '"postgresql"', 'snapshot restore'])
        assert.ok(err.message.includes(word), err.message);
      return true;
    });
  });

  it('refuses an unknown storage type, naming the ones there are', async () => {
    await assert.rejects(load(`storage "consul" {}\n${listener}`), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'invalid_request');
      assert.match(err.message, /"sqlite".*"etcd"/);
      return true;
    });
  });

  it('refuses a storage block and a backend block together', async () => {
    await assert.rejects(load(`storage "inmem" {}\nbackend "inmem" {}\n${listener}`), { code: 'invalid_request' });
  });

  it('reads storage "etcd": addresses, prefix, HA, TLS files, credentials, lock_ttl (issue 19)', async () => {
    const etcd = (body: string) => load(`storage "etcd" {\n${body}\n}\n${listener}`);
    assert.deepEqual((await etcd('')).storage.settings, {
      addresses: ['http://127.0.0.1:2379'],
      prefix: 'ward/',
      haEnabled: false,
      tlsCaFile: undefined,
      tlsCertFile: undefined,
      tlsKeyFile: undefined,
      username: undefined,
      password: undefined,
      lockTtlSeconds: 10,
    });
    const full = await etcd(
      [
        'address = "https://10.0.0.1:2379, https://10.0.0.2:2379"',
        'path = "/prod/ward"',
        'ha_enabled = "true"',
        'tls_ca_file = "/etc/ca.pem"',
        'tls_cert_file = "/etc/c.pem"',
        'tls_key_file = "/etc/k.pem"',
        'username = "ward"',
        'password = "pw"',
        'lock_ttl = "30s"',
      ].join('\n'),
    );
    assert.deepEqual((full.storage.settings as EtcdConfig).addresses, [
      'https://10.0.0.1:2379',
      'https://10.0.0.2:2379',
    ]);
    assert.equal((full.storage.settings as EtcdConfig).prefix, '/prod/ward/');
    assert.equal((full.storage.settings as EtcdConfig).haEnabled, true);
    assert.equal((full.storage.settings as EtcdConfig).lockTtlSeconds, 30);
    for (const bad of [
      'address = "127.0.0.1:2379"',
      'address = "ftp://h:1"',
      'path = "/"',
      'ha_enabled = "yes"',
      'lock_ttl = "1s"',
      'lock_ttl = "2h"',
      'tls_cert_file = "/c.pem"',
      'username = "ward"',
      'lock_tll = "15s"',
    ]) {
      await assert.rejects(etcd(bad), { code: 'invalid_request' }, bad);
    }
  });

  it('reads disable_performance_standby (default: standbys serve reads) (issue 19 point 5)', async () => {
    const storage = 'storage "inmem" {}\n';
    assert.equal((await load(`${storage}${listener}`)).disablePerformanceStandby, false);
    assert.equal(
      (await load(`${storage}${listener}disable_performance_standby = true\n`)).disablePerformanceStandby,
      true,
    );
    assert.equal(
      (await load(`${storage}${listener}disable_performance_standby = "true"\n`)).disablePerformanceStandby,
      true,
    );
  });

  it('accepts default_lease_ttl and max_lease_ttl restating the system 768h, and refuses other values', async () => {
    // Issue 18: hvac's vault-tls.hcl sets both to "768h".
    const ttls = (d: string, m: string) => `default_lease_ttl = "${d}"\nmax_lease_ttl = "${m}"\n`;
    const config = await load(`backend "inmem" {}\n${listener}${ttls('768h', '768h')}`);
    assert.equal(config.storage.type, 'inmem');
    await assert.rejects(load(`backend "inmem" {}\n${listener}${ttls('1h', '768h')}`), { code: 'invalid_request' });
  });

  it('reads kms_library "pkcs11" stanzas by name, case-insensitively unique (issue 16)', async () => {
    const lib = (name: string, path: string) =>
      `kms_library "pkcs11" {\n  name = "${name}"\n  library = "${path}"\n}\n`;
    const config = await load(`storage "inmem" {}\n${listener}${lib('SoftHSM', '/a.so')}${lib('other', '/b.so')}`);
    assert.deepEqual(
      [...config.kmsLibraries],
      [
        ['softhsm', '/a.so'],
        ['other', '/b.so'],
      ],
    );
    await assert.rejects(load(`storage "inmem" {}\n${listener}${lib('x', '/a.so')}${lib('X', '/b.so')}`), {
      code: 'invalid_request',
    });
    await assert.rejects(load(`storage "inmem" {}\n${listener}kms_library "pkcs11" {\n  name = "x"\n}\n`), {
      code: 'invalid_request',
    });
    await assert.rejects(
      load(`storage "inmem" {}\n${listener}kms_library "tpm" {\n  name = "x"\n  library = "/a"\n}\n`),
      {
        code: 'invalid_request',
      },
    );
  });
});
