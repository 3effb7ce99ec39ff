import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** bin/ward-agent, found from this file's place in dist/test/. */
const BIN = fileURLToPath(new URL('../../../../bin/ward-agent', import.meta.url));

/** Gossip and election timings that make failure detection and failover take about a second on loopback. */
export const FAST_GOSSIP = [
  '-gossip-probe-interval=100ms',
  '-gossip-probe-timeout=50ms',
  '-gossip-suspicion-mult=2',
  '-gossip-interval=50ms',
  '-gossip-push-pull-interval=1s',
  '-gossip-reconnect-interval=500ms',
  '-heartbeat-interval=500ms',
  '-raft-election-timeout=800ms',
  '-raft-heartbeat-interval=80ms',
];

export interface Ports {
  http: number;
  rpc: number;
  serf: number;
}

/** One `ward-agent agent` child process on 127.0.0.1. */
export class AgentProcess {
  logs = '';
  #exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly ports: Ports,
  ) {
    this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts an agent (ports 0 unless given) and resolves once it logs its bound ports. */
  static async start(args: string[], opts: { ports?: Ports; env?: NodeJS.ProcessEnv } = {}): Promise<AgentProcess> {
    const p = opts.ports ?? { http: 0, rpc: 0, serf: 0 };
    const child = spawn(
      process.execPath,
      [BIN, 'agent', '-bind=127.0.0.1', `-http-port=${p.http}`, `-rpc-port=${p.rpc}`, `-serf-port=${p.serf}`, ...args],
      { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let logs = '';
    const ports = await new Promise<Ports>((resolve, reject) => {
      // A child that never says it started must not outlive the test (it would hold the runner open).
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`agent did not start:\n${logs}`));
      }, 15_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        logs += chunk.toString();
        const m = /agent: started: .*http=(\d+) rpc=(\d+)(?: serf=(\d+))?/.exec(logs);
        if (m) {
          clearTimeout(timer);
          resolve({ http: Number(m[1]), rpc: Number(m[2]), serf: Number(m[3] ?? 0) });
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`agent exited with ${code}:\n${logs}`));
      });
    });
    const agent = new AgentProcess(child, ports);
    agent.logs = logs;
    child.stderr?.on('data', (chunk: Buffer) => {
      agent.logs += chunk.toString();
    });
    return agent;
  }

  get url(): string {
    return `http://127.0.0.1:${this.ports.http}`;
  }

  get rpcAddr(): string {
    return `127.0.0.1:${this.ports.rpc}`;
  }

  get serfAddr(): string {
    return `127.0.0.1:${this.ports.serf}`;
  }

  fetch(path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('X-Cluster-Token', init.token);
    return fetch(`${this.url}${path}`, { ...init, headers });
  }

  async json<T = Record<string, unknown>>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
    const res = await this.fetch(path, init);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** Sends `signal` and waits for the process to exit. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.#exited;
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes; then fails with `what`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export interface MemberView {
  Name: string;
  Status: string;
  Tags: Record<string, string>;
}

/** name → status as `agent` sees the pool. */
export async function statuses(agent: AgentProcess, token?: string): Promise<Record<string, string>> {
  const body = await agent.json<{ Members: MemberView[] }>('/v1/agent/members', { token });
  return Object.fromEntries(body.Members.map((m) => [m.Name, m.Status]));
}

/** Reads a streaming body in the background; `text` grows as bytes arrive. */
export function collect(res: Response, signal: AbortSignal): { text: string } {
  const out = { text: '' };
  const reader = res.body!.getReader();
  void (async () => {
    while (!signal.aborted) {
      const { value, done } = await reader.read();
      if (done) return;
      out.text += Buffer.from(value).toString();
    }
  })().catch(() => {});
  return out;
}

/** Runs a `ward-agent` CLI command to completion (no NOMAD_ or WARD_AGENT_ variables inherited). */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NOMAD_|WARD_AGENT_)/.test(k)));
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
