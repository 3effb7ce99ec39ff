import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { createDevTls, type DevTlsFiles } from '../src/server/dev-tls.js';
import { freePort, type TestResponse } from '../src/server/testing.js';
import { createSoftHsm, SOFTHSM_LIBRARY } from '../src/sys/kms/softhsm.testing.js';
import { startWard, type WardProcess } from './ward-process.js';

// Issue 29, done-when: the established server's example production configuration (SQLite in place
// of raft) with a seal stanza, cluster_name, cluster_address, TLS versions, lease TTLs, telemetry
// and ui starts bin/ward in one run; what Ward ignores is named at startup; the TTLs apply.

const hsm = createSoftHsm();
const hsmToken = hsm.addToken('ward-prod', '1234');

function productionConfig(dir: string, port: number, clusterPort: number, tls: DevTlsFiles): string {
  return `# Written as the established server's production example is, with SQLite for raft.
ui            = true
cluster_name  = "prod-eu-1"
cluster_addr  = "https://127.0.0.1:${clusterPort}"
api_addr      = "https://127.0.0.1:${port}"
disable_mlock = true
default_lease_ttl = "1h"
max_lease_ttl     = "2h"
pid_file = "${dir}/ward.pid"
log_file = "${dir}/logs/"

storage "sqlite" {
  path = "${dir}/ward.db"
}

listener "tcp"
{
  address         = "127.0.0.1:${port}"
  cluster_address = "127.0.0.1:${clusterPort}"
  tls_cert_file   = "${tls.certFile}"
  tls_key_file    = "${tls.keyFile}"
  tls_min_version = "tls13"
  tls_max_version = "tls13"
}

seal "pkcs11" {
  lib          = "${SOFTHSM_LIBRARY}"
  token_label  = "${hsmToken.label}"
  pin          = "${hsmToken.pin}"
  key_label    = "ward-unseal"
  generate_key = "true"
}

telemetry {
  statsite_address          = "127.0.0.1:8125"
  disable_hostname          = true
  prometheus_retention_time = "30s"
}
`;
}

describe('the established example production configuration through bin/ward', () => {
  let dir: string;
  let tls: DevTlsFiles;
  let ward: WardProcess;
  let port: number;
  let rootToken = '';
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    new Promise<Pick<TestResponse, 'status' | 'body'>>((resolve, reject) => {
      const req = httpsRequest(
        `https://127.0.0.1:${port}/v1/${path}`,
        {
          method,
          ca: readFileSync(tls.caFile),
          servername: 'localhost',
          headers: token ? { 'X-Vault-Token': token } : {},
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => {
            text += d.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
        },
      );
      req.once('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-prod-'));
    tls = await createDevTls(Date.now(), join(dir, 'tls'));
    port = await freePort();
    const file = join(dir, 'ward.hcl');
    await writeFile(file, productionConfig(dir, port, await freePort(), tls));
    ward = startWard(['server', `-config=${file}`]);
    await ward.waitFor(/Ward server started!/);
  });
  after(async () => {
    ward.child.kill('SIGTERM');
    await ward.exited;
    await rm(dir, { recursive: true, force: true });
    hsm.remove();
  });

  it('starts in one run and names, with its line, each key it does not act on', () => {
    const out = ward.output();
    assert.doesNotMatch(out, /"ui" at the top level has no effect/);
    assert.match(out, /ward\.hcl:6: "disable_mlock" at the top level has no effect in Ward/);
    assert.match(out, /ward\.hcl:35: "statsite_address" in telemetry has no effect in Ward/);
    assert.equal(readFileSync(join(dir, 'ward.pid'), 'utf8'), String(ward.child.pid));
    assert.match(readFileSync(join(dir, 'logs', 'ward.log'), 'utf8'), /"disable_mlock" at the top level has no effect/);
  });

  it('serves TLS 1.3 only (tls_min_version)', async () => {
    const refused = await new Promise<boolean>((resolve) => {
      const s = tlsConnect({
        port,
        host: '127.0.0.1',
        maxVersion: 'TLSv1.2',
        ca: readFileSync(tls.caFile),
        servername: 'localhost',
      });
      s.once('secureConnect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    assert.equal(refused, true);
  });

  it('initialises with recovery keys, unseals itself, and reports cluster_name', async () => {
    const status = (await call('GET', 'sys/seal-status')).body;
    assert.equal(status.type, 'pkcs11');
    const init = await call('PUT', 'sys/init', { recovery_shares: 1, recovery_threshold: 1 });
    assert.equal(init.status, 200, JSON.stringify(init.body));
    const health = (await call('GET', 'sys/health')).body;
    assert.equal(health.sealed, false);
    assert.equal(health.cluster_name, 'prod-eu-1');
    rootToken = init.body.root_token;
  });

  it('gives a token created without a TTL default_lease_ttl (1h), and caps its renewals at max_lease_ttl (2h)', async () => {
    const root = rootToken;
    const created = await call('POST', 'auth/token/create', { policies: ['default'] }, root);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.auth.lease_duration, 3600);
    const token = created.body.auth.client_token;
    const renewed = await call('POST', 'auth/token/renew-self', { increment: '5h' }, token);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.ok(renewed.body.auth.lease_duration <= 7200, `renewed to ${renewed.body.auth.lease_duration}s`);
    assert.ok(renewed.body.auth.lease_duration > 7000);
    const mount = await call('GET', 'sys/mounts/secret/tune', undefined, root);
    assert.deepEqual([mount.body.default_lease_ttl, mount.body.max_lease_ttl], [3600, 7200]);
  });

  it('removes its pid file when it stops', async () => {
    ward.child.kill('SIGTERM');
    assert.equal(await ward.exited, 0);
    assert.equal(existsSync(join(dir, 'ward.pid')), false);
  });
});

describe('a configuration file with five unknown keys', () => {
  it('prints five lines, one per key in line order, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-unknown-'));
    try {
      const file = join(dir, 'bad.hcl');
      await writeFile(
        file,
        [
          'cluster_nam = "x"',
          'storage "inmem" {}',
          'listener "tcp" {',
          '  address = "127.0.0.1:0"',
          '  tls_disable = true',
          '  tls_min_versoin = "tls12"',
          '}',
          'max_lease_tll = "1h"',
          'telemetry {',
          '  disable_hostnam = true',
          '}',
          'colour = "blue"',
        ].join('\n'),
      );
      const w = startWard(['server', `-config=${file}`]);
      assert.equal(await w.exited, 1);
      const lines = w.output().trimEnd().split('\n');
      assert.equal(lines.length, 5, w.output());
      assert.deepEqual(
        lines.map((l) => Number(new RegExp(`${file}:(\\d+): unknown key`).exec(l)?.[1])),
        [1, 6, 8, 10, 12],
      );
      assert.match(lines[0] as string, /^Error: .*"cluster_nam" at the top level; did you mean "cluster_name"\?/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
