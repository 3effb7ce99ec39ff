import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDevWard, startSqliteWard, startWard, type WardProcess } from './ward-process.js';

async function call(url: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${url}/v1/${path}`, {
    method,
    headers: { ...(options.token ? { 'X-Vault-Token': options.token } : {}), 'Content-Type': 'application/json' },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

// Issue 21, point 6: GET sys/metrics through prom-client, telemetry {} and unauthenticated_metrics_access.
describe('ward server: sys/metrics', () => {
  let dir: string;
  let server: WardProcess;
  let open = '';
  let guarded = '';
  let rootToken = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-metrics-'));
    const config = join(dir, 'ward.hcl');
    await writeFile(
      config,
      `storage "inmem" {}
telemetry {
  prometheus_retention_time = "24h"
  disable_hostname          = true
}
listener "tcp" {
  address     = "127.0.0.1:0"
  tls_disable = true
  telemetry {
    unauthenticated_metrics_access = true
  }
}
listener "tcp" {
  address     = "127.0.0.1:0"
  tls_disable = true
}
`,
    );
    server = startWard(['server', `-config=${config}`]);
    const [, first] = await server.waitFor(/Listener 1: tcp \(addr: "([^"]+)"/);
    const [, second] = await server.waitFor(/Listener 2: tcp \(addr: "([^"]+)"/);
    open = `http://${first}`;
    guarded = `http://${second}`;
    const init = JSON.parse(
      (await call(open, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } })).text,
    );
    rootToken = init.root_token;
    await call(open, 'PUT', 'sys/unseal', { body: { key: init.keys[0] } });
    await call(open, 'POST', 'sys/mounts/kv', { token: rootToken, body: { type: 'kv' } });
    await call(open, 'PUT', 'kv/a', { token: rootToken, body: { v: '1' } });
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the Prometheus format without a token where the listener allows it', async () => {
    const res = await call(open, 'GET', 'sys/metrics?format=prometheus');
    assert.equal(res.status, 200);
    assert.match(res.type, /^text\/plain/);
    assert.match(res.text, /^ward_http_requests_total\{method="PUT",mount_type="kv",status="204"\} 1$/m);
    assert.match(
      res.text,
      /^ward_http_request_duration_seconds_count\{method="PUT",mount_type="kv",status="204"\} 1$/m,
    );
    assert.match(res.text, /^ward_core_unsealed 1$/m);
    assert.match(res.text, /^ward_expire_num_leases\{state="active"\} \d+$/m);
    assert.match(res.text, /^ward_storage_operation_duration_seconds_count\{operation="put"\} [1-9]\d*$/m);
    assert.match(res.text, /^ward_process_nodejs_eventloop_lag_seconds /m);
    assert.match(res.text, /^ward_process_nodejs_heap_size_used_bytes /m);
    assert.doesNotMatch(res.text, /host="/, 'disable_hostname leaves the host label off');
  });

  it('answers JSON by default, and refuses an unknown format', async () => {
    const json = await call(open, 'GET', 'sys/metrics');
    assert.equal(json.status, 200);
    const body = JSON.parse(json.text);
    assert.ok(
      body.Gauges.some((g: { Name: string; Value: number }) => g.Name === 'ward_core_unsealed' && g.Value === 1),
    );
    assert.ok(body.Counters.some((c: { Name: string }) => c.Name === 'ward_http_requests_total'));
    assert.ok(Array.isArray(body.Samples));
    const bad = await call(open, 'GET', 'sys/metrics?format=xml');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /metric response format "xml" unknown/);
  });

  it('needs a token with read on sys/metrics on the other listener', async () => {
    assert.equal((await call(guarded, 'GET', 'sys/metrics?format=prometheus')).status, 403);
    const withToken = await call(guarded, 'GET', 'sys/metrics?format=prometheus', { token: rootToken });
    assert.equal(withToken.status, 200);
    assert.match(withToken.text, /^ward_core_unsealed 1$/m);
  });
});

describe('sys/metrics in Prometheus form without a telemetry stanza', () => {
  // Issue 28 point 10: the established dev server retains Prometheus metrics for 24 h, so dev mode answers.
  it('answers in dev mode (24 h retention, no hostname label)', async () => {
    const { ward, url } = await startDevWard('root');
    try {
      const res = await call(url, 'GET', 'sys/metrics?format=prometheus', { token: 'root' });
      assert.equal(res.status, 200, res.text);
      assert.match(res.text, /^ward_core_unsealed 1$/m);
      assert.equal((await call(url, 'GET', 'sys/metrics', { token: 'root' })).status, 200);
    } finally {
      ward.child.kill('SIGTERM');
      await ward.exited;
    }
  });

  it('says Prometheus is not enabled on a configured server without a retention time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-metrics-plain-'));
    try {
      const w = await startSqliteWard(dir);
      try {
        const res = await call(w.url, 'GET', 'sys/metrics?format=prometheus', { token: w.rootToken });
        assert.equal(res.status, 400);
        assert.equal(res.text, 'prometheus is not enabled');
      } finally {
        w.ward.child.kill('SIGTERM');
        await w.ward.exited;
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
