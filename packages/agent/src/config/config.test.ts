import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UsageError } from '@ward/base';
import { defaultConfig, mergeConfig } from './config.js';
import { ConfigError } from './errors.js';
import { parseFlags } from './flags.js';
import { parseConfigText } from './hcl-file.js';
import { loadConfig } from './load.js';

describe('agent config', () => {
  it('reads the established HCL layout', async () => {
    const layer = await parseConfigText(
      'agent.hcl',
      `name = "s1"
region = "eu"
datacenter = "dc9"
data_dir = "/tmp/x"
bind_addr = "127.0.0.1"
ports {
  http = 5646
  rpc = 5647
  serf = 5648
}
server {
  enabled = true
  bootstrap_expect = 3
}
client {
  enabled = true
  servers = ["127.0.0.1:5647"]
}
acl {
  enabled = true
  agent_token = "abc"
}
enable_debug = false
log_level = "DEBUG"
log_json = true
gossip { probe_interval = "200ms" }
`,
    );
    const c = mergeConfig(defaultConfig('h'), layer);
    assert.equal(c.name, 's1');
    assert.equal(c.region, 'eu');
    assert.equal(c.datacenter, 'dc9');
    assert.deepEqual(c.ports, { http: 5646, rpc: 5647, serf: 5648 });
    assert.deepEqual(c.server, { enabled: true, bootstrapExpect: 3 });
    assert.deepEqual(c.client, { enabled: true, servers: ['127.0.0.1:5647'] });
    assert.deepEqual(c.acl, { enabled: true, agentToken: 'abc' });
    assert.equal(c.enableDebug, false);
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.logJson, true);
    assert.equal(c.gossip.probeIntervalMs, 200);
    assert.equal(c.gossip.probeTimeoutMs, 3000);
  });

  it('reads retry_join from server_join, or directly from server, and the raft block; flags win', async () => {
    const nested = await parseConfigText(
      'a.hcl',
      'server {\n  server_join {\n    retry_join = ["10.0.0.1:4648"]\n    retry_interval = "15s"\n    retry_max = 3\n  }\n}\nraft {\n  election_timeout = "2s"\n}\n',
    );
    const flat = await parseConfigText('b.hcl', 'server {\n  retry_join = ["10.0.0.2"]\n}\n');
    const flags = parseFlags(['-retry-join=10.0.0.3', '-retry-max=5', '-raft-heartbeat-interval=200ms']).layer;
    const c = mergeConfig(defaultConfig('h'), nested, flat, flags);
    assert.deepEqual(c.retryJoin, { addresses: ['10.0.0.3'], intervalMs: 15_000, max: 5 });
    assert.deepEqual(c.raft, { electionTimeoutMs: 2000, heartbeatIntervalMs: 200 });
    assert.deepEqual(mergeConfig(defaultConfig('h'), flat).retryJoin.addresses, ['10.0.0.2']);
  });

  // Issue 23 point 10: gossip_profile picks the established LAN or WAN timings.
  it('starts gossip timings from gossip_profile, with explicit timings on top in any layer', async () => {
    const wan = defaultConfig('h').gossip;
    assert.deepEqual([wan.probeIntervalMs, wan.probeTimeoutMs, wan.suspicionMult], [5000, 3000, 6]);
    const file = await parseConfigText('a.hcl', 'gossip_profile = "lan"\n');
    const lan = mergeConfig(defaultConfig('h'), file).gossip;
    assert.deepEqual(
      [lan.probeIntervalMs, lan.probeTimeoutMs, lan.suspicionMult, lan.pushPullIntervalMs],
      [1000, 500, 4, 30_000],
    );
    const early = parseFlags(['-gossip-probe-interval=200ms']).layer;
    const mixed = mergeConfig(defaultConfig('h'), early, file, parseFlags(['-gossip-profile=lan']).layer).gossip;
    assert.deepEqual([mixed.probeIntervalMs, mixed.probeTimeoutMs], [200, 500]);
    assert.throws(() => parseFlags(['-gossip-profile=moon']), UsageError);
    await assert.rejects(parseConfigText('b.hcl', 'gossip_profile = "moon"\n'), ConfigError);
  });

  it('reads server { encrypt } and tls { }, takes -encrypt, and refuses a bad key or a half TLS block', async () => {
    const key = Buffer.alloc(32, 9).toString('base64');
    const layer = await parseConfigText(
      'agent.hcl',
      `server {
  enabled = true
  encrypt = "${key}"
}
tls {
  rpc = true
  verify_server_hostname = true
  ca_file = "/etc/ca.pem"
  cert_file = "/etc/s.pem"
  key_file = "/etc/s.key"
}
`,
    );
    const c = mergeConfig(defaultConfig('h'), layer);
    assert.equal(c.encrypt, key);
    assert.deepEqual(c.tls, {
      rpc: true,
      verifyServerHostname: true,
      caFile: '/etc/ca.pem',
      certFile: '/etc/s.pem',
      keyFile: '/etc/s.key',
    });
    assert.equal(parseFlags([`-encrypt=${key}`]).layer.encrypt, key);
    await assert.rejects(loadConfig(['-server', '-encrypt=not-a-key']), ConfigError);
    await assert.rejects(loadConfig(['-server', `-encrypt=${Buffer.alloc(20).toString('base64')}`]), /16, 24 or 32/);
    const dir = await mkdtemp(join(tmpdir(), 'ward-agent-tls-config-'));
    try {
      const half = join(dir, 'half.hcl');
      await writeFile(half, 'tls {\n  rpc = true\n  ca_file = "/x"\n}\n');
      await assert.rejects(
        loadConfig(['-server', `-config=${half}`]),
        /tls\.rpc needs ca_file, cert_file and key_file/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects values of the wrong type', async () => {
    await assert.rejects(parseConfigText('a.hcl', 'ports { http = "x" }'), ConfigError);
    await assert.rejects(parseConfigText('a.hcl', 'log_level = "loud"'), ConfigError);
  });

  it('lets flags override files, repeats -join, and keeps enable_debug unset unless given', async () => {
    const f = parseFlags(['-server', '-join=127.0.0.1:1', '-join', '127.0.0.1:2', '-http-port=7000', '-node', 'x']);
    assert.deepEqual(f.layer.join, ['127.0.0.1:1', '127.0.0.1:2']);
    const c = mergeConfig(defaultConfig('h'), { ports: { http: 1, rpc: 2 } }, f.layer);
    assert.deepEqual(c.ports, { http: 7000, rpc: 2, serf: 4648 });
    assert.equal(c.enableDebug, undefined);
    assert.equal(parseFlags(['-enable-debug=false']).layer.enableDebug, false);
    assert.throws(() => parseFlags(['-nope']), UsageError);
    assert.throws(() => parseFlags(['-http-port=abc']), UsageError);
  });

  // Issue 21 point 12: one duration parser, with Go's rules for the agent: a number needs its unit.
  it('reads durations in flags and files as Go does, and says why one is refused', async () => {
    const file = await parseConfigText('a.hcl', 'gossip {\n  probe_interval = "1.5s"\n  probe_timeout = "0"\n}\n');
    assert.deepEqual([file.gossip?.probeIntervalMs, file.gossip?.probeTimeoutMs], [1500, 0]);
    assert.equal(parseFlags(['-heartbeat-interval', '1m30s']).layer.heartbeatIntervalMs, 90_000);
    assert.throws(() => parseFlags(['-retry-interval=30']), {
      name: 'UsageError',
      message: 'invalid value "30" for flag -retry-interval: missing unit in duration "30"',
    });
    assert.throws(() => parseFlags(['-retry-interval=-1s']), /durations cannot be negative/);
    assert.throws(() => parseFlags(['-retry-interval=2562048h']), /longer than the maximum/);
    await assert.rejects(parseConfigText('b.hcl', 'gossip {\n  probe_interval = 100\n}\n'), {
      name: 'ConfigError',
      message: 'gossip.probe_interval: missing unit in duration "100"',
    });
    await assert.rejects(parseConfigText('c.hcl', 'raft {\n  election_timeout = "1d"\n}\n'), /unknown unit "d"/);
  });

  it('makes -dev a loopback single-server cluster that is also a client', async () => {
    const c = await loadConfig(['-dev']);
    assert.equal(c.bindAddr, '127.0.0.1');
    assert.equal(c.server.enabled && c.client.enabled, true);
    assert.equal(c.server.bootstrapExpect, 1);
    await assert.rejects(loadConfig([]), ConfigError);
  });

  it('reads -config files, and flags given after them still win', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-agent-config-'));
    try {
      const file = join(dir, 'agent.hcl');
      await writeFile(file, 'name = "from-file"\nregion = "eu"\nserver {\n  enabled = true\n}\n');
      const c = await loadConfig([`-config=${file}`, '-region=us']);
      assert.equal(c.name, 'from-file');
      assert.equal(c.region, 'us');
      assert.equal(c.server.enabled, true);
      await assert.rejects(loadConfig([`-config=${join(dir, 'missing.hcl')}`]), ConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
