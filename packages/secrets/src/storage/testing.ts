import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A throw-away single-member etcd (Debian's `etcd-server`) on loopback ports, in a temp dir. */
export interface EtcdProcess {
  /** The client URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  stop(): Promise<void>;
}

/** A port the kernel had free a moment ago (etcd cannot be told to pick its own). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

export async function startEtcd(): Promise<EtcdProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-etcd-'));
  const url = `http://127.0.0.1:${await freePort()}`;
  const peer = `http://127.0.0.1:${await freePort()}`;
  let output = '';
  const child: ChildProcess = spawn(
    'etcd',
    [
      '--name=ward-test',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=ward-test=${peer}`,
      '--log-level=error',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const collect = (d: Buffer) => {
    output += d;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (err) => collect(Buffer.from(`\n${err.message} (is Debian's etcd-server installed?)`)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) break;
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  await stop();
  throw new Error(`etcd did not start: ${output}`);
}
