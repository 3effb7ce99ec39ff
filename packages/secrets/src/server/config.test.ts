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

  it('reads ui (default: no UI), refusing a value that is not a boolean (issue 34)', async () => {
    const storage = 'storage "inmem" {}\n';
    assert.equal((await load(`${storage}${listener}`)).ui, false);
    assert.equal((await load(`ui = true\n${storage}${listener}`)).ui, true);
    assert.equal((await load(`ui = "false"\n${storage}${listener}`)).ui, false);
    await assert.rejects(load(`ui = "yes please"\n${storage}${listener}`), /ward\.hcl:1: ui must be true or false/);
  });

  it('reads workers as an integer from 1 to 64, refusing anything else with the range (issue 36)', async () => {
    const storage = 'storage "sqlite" {\n  path = "/tmp/ward.db"\n}\n';
    assert.equal((await load(`${storage}${listener}`)).workers, undefined);
    assert.equal((await load(`${storage}${listener}workers = 4\n`)).workers, 4);
    assert.equal((await load(`${storage}${listener}workers = "64"\n`)).workers, 64);
    for (const bad of ['0', '65', '1.5', '"two"', '-1']) {
      await assert.rejects(load(`${storage}${listener}workers = ${bad}\n`), /workers must be an integer from 1 to 64/);
    }
  });

  it('reads default_lease_ttl and max_lease_ttl as any durations, the default at most the max (issue 29)', async () => {
    // Issue 18: hvac's vault-tls.hcl sets both to "768h"; issue 29: any value, as established.
    const ttls = (text: string) => load(`backend "inmem" {}\n${listener}${text}`);
    assert.deepEqual((await ttls('default_lease_ttl = "1h"\nmax_lease_ttl = "2h"\n')).systemTtls, {
      defaultLeaseTtlSeconds: 3600,
      maxLeaseTtlSeconds: 7200,
    });
    assert.deepEqual((await ttls('default_lease_ttl = "1h"\n')).systemTtls, {
      defaultLeaseTtlSeconds: 3600,
      maxLeaseTtlSeconds: 2_764_800,
    });
    assert.equal((await ttls('')).systemTtls, undefined);
    await assert.rejects(
      ttls('default_lease_ttl = "3h"\nmax_lease_ttl = "2h"\n'),
      /cannot be larger than max_lease_ttl/,
    );
    await assert.rejects(ttls('max_lease_ttl = "2h"\n'), /default_lease_ttl \(768h0m0s\) cannot be larger/);
  });

  it('reports every problem of a file at once, in line order, each with its line (issue 29)', async () => {
    const text = [
      'storage "inmem" {}', // 1
      'colour = "blue"', // 2
      'listener "tcp" {', // 3
      '  address = "127.0.0.1:0"', // 4
      '  tls_disable = true', // 5
      '  tls_min_version = "tls99"', // 6
      '  # the listener', // 7
      '}', // 8
      'cluster_nmae = "x"', // 9
      'telemetry {', // 10
      '  statsd_adress = "x"', // 11
      '}', // 12
      'flavour = "mint"', // 13
    ].join('\n');
    const err = await load(text).then(
      () => assert.fail('accepted'),
      (e: Error) => e,
    );
    const lines = err.message.split('\n');
    assert.equal(lines.length, 5, err.message);
    assert.deepEqual(
      lines.map((l) => Number(/ward\.hcl:(\d+):/.exec(l)?.[1])),
      [2, 3, 9, 11, 13],
    );
    assert.match(lines[2] as string, /unknown key "cluster_nmae" at the top level; did you mean "cluster_name"\?/);
    assert.match(lines[1] as string, /unknown TLS version "tls99"/);
  });

  it('accepts keys it does not act on with a warning naming each and its line (issue 29)', async () => {
    const config = await load(
      `disable_mlock = true\nstorage "inmem" {}\nplugin_directory = "/opt/plugins"\n${listener}telemetry {\n  statsite_address = "x:8125"\n}\n`,
    );
    const warnings = config.warnings ?? [];
    assert.equal(warnings.length, 3, warnings.join('\n'));
    assert.match(warnings[0] as string, /ward\.hcl:1: "disable_mlock" at the top level has no effect in Ward/);
    assert.match(warnings[1] as string, /ward\.hcl:3: "plugin_directory" .* no external plugins/);
    assert.match(warnings[2] as string, /ward\.hcl:9: "statsite_address" in telemetry has no effect in Ward/);
  });

  it('reads the TLS, client-certificate and proxy settings of a listener (issue 29)', async () => {
    const config = await load(
      [
        'storage "inmem" {}',
        'listener "tcp" {',
        '  address = "127.0.0.1:0"',
        '  cluster_address = "127.0.0.1:8201"',
        '  tls_cert_file = "/c.pem"',
        '  tls_key_file = "/k.pem"',
        '  tls_min_version = "tls13"',
        '  tls_cipher_suites = "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"',
        '  tls_client_ca_file = "/ca.pem"',
        '  tls_require_and_verify_client_cert = "true"',
        '  x_forwarded_for_authorized_addrs = "10.0.0.0/8, 192.168.1.1"',
        '  x_forwarded_for_hop_skips = 1',
        '  x_forwarded_for_reject_not_present = false',
        '  x_forwarded_for_client_cert_header = "X-Client-Cert"',
        '  x_forwarded_for_client_cert_header_decoders = "URL, BASE64"',
        '  proxy_protocol_behavior = "allow_authorized"',
        '  proxy_protocol_authorized_addrs = ["127.0.0.1"]',
        '}',
      ].join('\n'),
    );
    const l = config.listeners[0];
    assert.equal(l?.clusterAddress, '127.0.0.1:8201');
    assert.equal(l?.tlsMinVersion, 'TLSv1.3');
    assert.equal(l?.tlsCiphers, 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384');
    assert.equal(l?.clientCertMode, 'require');
    assert.deepEqual(l?.forwardedFor, {
      authorizedCidrs: ['10.0.0.0/8', '192.168.1.1/32'],
      hopSkips: 1,
      rejectNotAuthorized: true,
      rejectNotPresent: false,
      clientCertHeader: 'X-Client-Cert',
      clientCertDecoders: ['URL', 'BASE64'],
    });
    await assert.rejects(
      load(
        `storage "inmem" {}\nlistener "tcp" {\n  tls_disable = true\n  x_forwarded_for_authorized_addrs = "10.0.0.0/8"\n  x_forwarded_for_client_cert_header = "X"\n  x_forwarded_for_client_cert_header_decoders = "PEM"\n}\n`,
      ),
      /unknown decoder "PEM"; use BASE64, DER or URL/,
    );
    await assert.rejects(
      load(
        `storage "inmem" {}\nlistener "tcp" {\n  tls_disable = true\n  x_forwarded_for_client_cert_header = "X"\n}\n`,
      ),
      /x_forwarded_for_client_cert_header needs x_forwarded_for_authorized_addrs/,
    );
    assert.deepEqual(l?.proxyProtocol, { behavior: 'allow_authorized', authorizedCidrs: ['127.0.0.1/32'] });
    await assert.rejects(
      load(
        `storage "inmem" {}\nlistener "tcp" {\n  tls_disable = true\n  tls_disable_client_certs = true\n  tls_require_and_verify_client_cert = true\n}\n`,
      ),
      /mutually exclusive/,
    );
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
