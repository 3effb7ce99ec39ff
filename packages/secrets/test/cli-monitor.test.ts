import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { list as listTar } from 'tar';
import { runWard, runWardInProcess, tempHome } from '../src/cli/testing.js';
import { request } from '../src/server/testing.js';
import { type DevWard, startDevWard, startWard } from './ward-process.js';

// Issue 35: `ward monitor` streams the log of a real `ward server -dev` (GET sys/monitor);
// `ward debug` bundles its status, metrics and log into a .tar.gz.
// `monitor` (until SIGINT) and `debug` run through bin/ward; the one-shot commands run in process.
describe('ward monitor and ward debug', () => {
  let dev: DevWard;
  before(async () => {
    dev = await startDevWard('root');
  });
  after(async () => {
    dev.ward.child.kill('SIGTERM');
    await dev.ward.exited;
  });

  it('prints the log line a request causes, at the level asked, until interrupted', async () => {
    const monitor = startWard(['monitor', '-log-level=debug'], dev.env);
    try {
      // The server logs at info: the request's debug line reaches only the monitor.
      // Until the monitor has subscribed, the lines are not its: repeat the cause until one arrives.
      const seen = monitor.waitFor(
        /\[DEBUG\] request: component=http method=GET path=\/v1\/sys\/mounts status=403/,
        15_000,
      );
      let isSeen = false;
      seen.then(
        () => {
          isSeen = true;
        },
        () => {},
      );
      for (let i = 0; i < 60 && !isSeen; i++) {
        await request(dev.url, 'GET', 'sys/mounts', { token: 'not-a-token' });
        await sleep(250);
      }
      await seen;
      assert.doesNotMatch(monitor.output(), /not-a-token/, 'the token never reaches the log');
    } finally {
      monitor.child.kill('SIGINT');
      await monitor.exited;
    }
  });

  it('refuses an unknown level and a token without sudo', async () => {
    const level = await runWardInProcess(['monitor', '-log-level=loud'], dev.env);
    assert.equal(level.code, 2);
    assert.match(level.stderr, /invalid log level "loud"/);
    const server = await request(dev.url, 'GET', 'sys/monitor?log_level=loud', { token: 'root' });
    assert.equal(server.status, 400);
    assert.match(JSON.stringify(server.body), /unknown log level/);
    const created = await runWardInProcess(['token', 'create', '-policy=default', '-field=token'], dev.env);
    const limited = await runWardInProcess(['monitor'], { ...dev.env, VAULT_TOKEN: created.stdout.trim() });
    assert.equal(limited.code, 2);
    assert.match(limited.stderr, /permission denied/);
  });

  it('debug writes the established bundle: index, status, metrics and the log of the duration', async () => {
    const output = join(await tempHome(), 'bundle.tar.gz');
    const args = ['debug', '-duration=3s', '-interval=1s', '-metrics-interval=1s', `-output=${output}`];
    const run = await runWard(args, dev.env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Success! Bundle written to: .*bundle\.tar\.gz/);
    const entries = new Map<string, string>();
    await listTar({
      file: output,
      onReadEntry: (entry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (d: Buffer) => chunks.push(d));
        entry.on('end', () => entries.set(entry.path, Buffer.concat(chunks).toString()));
      },
    });
    const names = [...entries.keys()].sort();
    for (const file of [
      'index.json',
      'server_status.json',
      'metrics.json',
      'vault.log',
      'host_info.json',
      'config.json',
    ]) {
      assert.ok(names.includes(`bundle/${file}`), `${file} in ${names.join(', ')}`);
    }
    const index = JSON.parse(entries.get('bundle/index.json') ?? '');
    assert.equal(index.duration_seconds, 3);
    assert.deepEqual(index.raw_args, args, 'the command line of the run');
    assert.equal(index.vault_address, dev.url);
    const failed = index.errors.map((e: { target: string }) => e.target).sort();
    assert.deepEqual(failed, ['pprof', 'replication-status'], JSON.stringify(index.errors));
    const host = JSON.parse(entries.get('bundle/host_info.json') ?? '');
    assert.ok(host.data.memory.total > 0 && host.data.cpu.length > 0 && host.data.host.hostname);
    const config = JSON.parse(entries.get('bundle/config.json') ?? '');
    assert.equal(config.data.storage.type, 'inmem');
    assert.equal(config.data.listeners[0].config.address, '127.0.0.1:0', 'as configured');
    const status = JSON.parse(entries.get('bundle/server_status.json') ?? '');
    assert.ok(status.length >= 3, `one status per interval: ${status.length}`);
    assert.equal(status[0].health.initialized, true);
    assert.equal(status[0].seal.sealed, false);
    assert.ok(JSON.parse(entries.get('bundle/metrics.json') ?? '').length >= 3);
    // The bundle's own polling is logged at debug while the capture runs.
    assert.match(entries.get('bundle/vault.log') ?? '', /\[DEBUG\] request: .*path=\/v1\/sys\/health/);
  });

  it('sys/host-info and sys/config/state/sanitized need sudo', async () => {
    const created = await runWardInProcess(['token', 'create', '-policy=default', '-field=token'], dev.env);
    for (const path of ['sys/host-info', 'sys/config/state/sanitized']) {
      const denied = await request(dev.url, 'GET', path, { token: created.stdout.trim() });
      assert.equal(denied.status, 403, path);
    }
  });
});
