// Gossip convergence of 10 and 50 agents on loopback, failure detection under the WAN
// (default) and LAN gossip profiles, leader failover with the default Raft timings, and
// the idle CPU and memory of one agent. Run with `npm run bench` (after a build).
// Figures are printed, never asserted: they depend on the machine.
import { readFileSync } from 'node:fs';
import { DEFAULT_GOSSIP } from '../src/gossip/config.js';
import { TestCluster } from '../src/gossip/testing.js';
import { AgentProcess, statuses, waitUntil } from '../test/harness.js';

async function allSee(agents: AgentProcess[], want: (s: Record<string, string>) => boolean): Promise<void> {
  await waitUntil('pool view', async () => (await Promise.all(agents.map((a) => statuses(a)))).every(want), 180_000);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Starts `size` servers apart, then has all but the first join it at once; resolves once all see all alive. */
async function formPool(size: number, flags: string[]): Promise<{ agents: AgentProcess[]; joinMs: number }> {
  const agents: AgentProcess[] = [];
  for (let i = 0; i < size; i += 10) {
    const batch = Array.from({ length: Math.min(10, size - i) }, (_, j) =>
      AgentProcess.start(['-server', `-node=b${i + j}`, `-bootstrap-expect=${size}`, ...flags]),
    );
    agents.push(...(await Promise.all(batch)));
  }
  const first = agents[0]!;
  const startMs = performance.now();
  await Promise.all(
    agents.slice(1).map((a) => a.fetch(`/v1/agent/join?address=${first.serfAddr}`, { method: 'POST' })),
  );
  const alive = (s: Record<string, string>) => Object.values(s).filter((v) => v === 'alive').length === size;
  await allSee(agents, alive);
  return { agents, joinMs: performance.now() - startMs };
}

async function leaderOf(a: AgentProcess): Promise<string> {
  return a.json<string>('/v1/status/leader');
}

/** Until every agent names the same non-empty leader other than `not`; returns it. */
async function agreedLeader(agents: AgentProcess[], not = ''): Promise<string> {
  let leader = '';
  await waitUntil(
    'an agreed leader',
    async () => {
      const views = await Promise.all(agents.map(leaderOf));
      leader = views[0] ?? '';
      return leader !== '' && leader !== not && views.every((v) => v === leader);
    },
    60_000,
  );
  return leader;
}

/** SIGKILLs a follower and times until every survivor shows it `failed`. */
async function failureDetection(label: string, size: number, flags: string[]): Promise<void> {
  const { agents, joinMs } = await formPool(size, flags);
  try {
    console.log(
      `${label}: all ${size} agents see ${size} alive ${joinMs.toFixed(0)} ms after ${size - 1} joined the first at once`,
    );
    const leader = await agreedLeader(agents);
    const index = agents.findIndex((a) => a.rpcAddr !== leader);
    const [victim] = agents.splice(index, 1);
    const name = `b${/-node=b(\d+)/.exec(victim!.child.spawnargs.join(' '))?.[1]}.global`;
    await victim!.kill('SIGKILL');
    const killedMs = performance.now();
    await allSee(agents, (s) => s[name] === 'failed');
    console.log(
      `${label}: all ${size - 1} survivors see a SIGKILLed member failed after ${seconds(performance.now() - killedMs)}`,
    );
    const cpu = await idleUsage(agents[0]!, 10_000);
    console.log(
      `${label}: one server in the pool, idle: ${cpu.cpuPercent.toFixed(2)}% CPU, ${cpu.rssMb.toFixed(1)} MiB RSS`,
    );
  } finally {
    await Promise.all(agents.map((a) => a.kill()));
  }
}

/** Three servers with default timings: SIGKILL the leader, time until both survivors agree on a new one. */
async function failover(): Promise<number> {
  const { agents } = await formPool(3, []);
  try {
    const old = await agreedLeader(agents);
    const victim = agents.find((a) => a.rpcAddr === old)!;
    const survivors = agents.filter((a) => a !== victim);
    await victim.kill('SIGKILL');
    const killedMs = performance.now();
    await agreedLeader(survivors, old);
    return performance.now() - killedMs;
  } finally {
    await Promise.all(agents.map((a) => a.kill()));
  }
}

async function convergenceOnly(size: number): Promise<void> {
  const { agents, joinMs } = await formPool(size, []);
  try {
    console.log(
      `default (WAN) timings: all ${size} agents see ${size} alive ${joinMs.toFixed(0)} ms after ${size - 1} joined the first at once`,
    );
  } finally {
    await Promise.all(agents.map((a) => a.kill()));
  }
}

/**
 * The protocol alone: `size` memberlists on the in-memory network with default timings
 * join the first at once; fake milliseconds until all see all alive. Separates gossip
 * rounds from the cost of running many processes on one machine.
 */
async function protocolConvergence(size: number): Promise<void> {
  const c = new TestCluster();
  for (let i = 0; i < size; i++) c.add(`n${i}`, DEFAULT_GOSSIP);
  const [first, ...rest] = c.nodes;
  await Promise.all(rest.map((node) => node.join([first!.local])));
  let fakeMs = 0;
  const isConverged = () => c.nodes.every((node) => node.members().filter((m) => m.state === 'alive').length === size);
  while (!isConverged() && fakeMs < 600_000) {
    await c.run(100, 10);
    fakeMs += 100;
  }
  for (const node of c.nodes) await node.shutdown();
  console.log(
    `protocol only (in-memory network, default timings): ${size} members converge in ${seconds(fakeMs)} of gossip time`,
  );
}

/** CPU share over `ms` (user+system ticks from /proc) and resident memory of an agent process. */
async function idleUsage(agent: AgentProcess, ms: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const pid = agent.child.pid!;
  const ticks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const t0 = ticks();
  await new Promise((r) => setTimeout(r, ms));
  const used = ticks() - t0;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  // Linux reports CPU time in clock ticks of 1/100 s (USER_HZ).
  return { cpuPercent: (used / 100 / (ms / 1000)) * 100, rssMb: Number(rss) / 1024 };
}

async function main(): Promise<void> {
  await protocolConvergence(10);
  await protocolConvergence(50);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) runs.push(await failover());
  runs.sort((a, b) => a - b);
  console.log(
    `leader failover, 3 servers, default Raft timings (election timeout 1 s): SIGKILL of the leader → both survivors agree on a new one after min ${seconds(runs[0]!)}, median ${seconds(runs[2]!)}, max ${seconds(runs[4]!)} (5 runs)`,
  );
  await failureDetection('gossip_profile = "lan"', 10, ['-gossip-profile=lan']);
  await failureDetection('gossip_profile = "wan" (default)', 10, []);
  await convergenceOnly(50);
  const dev = await AgentProcess.start(['-dev', '-node=idle']);
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const u = await idleUsage(dev, 10_000);
    console.log(
      `one -dev agent (server+client), idle for 10 s: ${u.cpuPercent.toFixed(2)}% CPU, ${u.rssMb.toFixed(1)} MiB RSS`,
    );
  } finally {
    await dev.kill();
  }
}

await main();
