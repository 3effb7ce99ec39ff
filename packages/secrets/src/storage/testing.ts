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

/** One member of a throw-away etcd cluster. */
export interface EtcdMember {
  name: string;
  /** The member's client URL. */
  url: string;
  /** Kills the process with `signal` (default SIGKILL) and waits until it is gone; its data stays. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the killed member again on its data, so it rejoins the cluster. */
  restart(): Promise<void>;
}

/** A throw-away etcd cluster on loopback ports, each member in its own temp dir. */
export interface EtcdCluster {
  members: EtcdMember[];
  /** Every member's client URL, for a client that should fail over between them. */
  urls: string[];
  /** Stops every member and removes the data. */
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
  const cluster = await startEtcdCluster(1);
  return { url: cluster.urls[0] ?? '', stop: () => cluster.stop() };
}

interface MemberSpec {
  name: string;
  url: string;
  peer: string;
}

/** Starts `size` members that form one cluster and waits until every one reports healthy. */
export async function startEtcdCluster(size: number): Promise<EtcdCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-etcd-'));
  const specs: MemberSpec[] = [];
  for (let i = 0; i < size; i++) {
    specs.push({
      name: `ward-test-${i}`,
      url: `http://127.0.0.1:${await freePort()}`,
      peer: `http://127.0.0.1:${await freePort()}`,
    });
  }
  const initialCluster = specs.map((s) => `${s.name}=${s.peer}`).join(',');
  const members = specs.map((spec) => new Member(spec, dir, initialCluster));
  const stop = async () => {
    await Promise.all(members.map((m) => m.kill('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(members.map((m) => m.restart()));
  } catch (err) {
    await stop();
    throw err;
  }
  return { members, urls: specs.map((s) => s.url), stop };
}

class Member implements EtcdMember {
  readonly name: string;
  readonly url: string;
  readonly #args: string[];
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #output = '';

  constructor(spec: MemberSpec, dir: string, initialCluster: string) {
    this.name = spec.name;
    this.url = spec.url;
    this.#args = [
      `--name=${spec.name}`,
      `--data-dir=${join(dir, spec.name)}`,
      `--listen-client-urls=${spec.url}`,
      `--advertise-client-urls=${spec.url}`,
      `--listen-peer-urls=${spec.peer}`,
      `--initial-advertise-peer-urls=${spec.peer}`,
      `--initial-cluster=${initialCluster}`,
      '--initial-cluster-state=new',
      '--log-level=error',
    ];
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await this.#exited;
  }

  async restart(): Promise<void> {
    await this.kill();
    this.#output = '';
    const child = spawn('etcd', this.#args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    const collect = (d: Buffer) => {
      this.#output += d;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.#exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', (err) => collect(Buffer.from(`\n${err.message} (is Debian's etcd-server installed?)`)));
    for (let attempt = 0; attempt < 400; attempt++) {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) break;
      try {
        const res = await fetch(`${this.url}/health`);
        if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return;
      } catch {
        // not listening yet, or no quorum yet (the other members are still starting)
      }
      await sleep(50);
    }
    await this.kill();
    throw new Error(`etcd member ${this.name} did not start: ${this.#output}`);
  }
}
