// Gossip convergence for 10 agents on loopback, failure detection time, and the idle
// CPU and memory of one agent. Run with `npm run bench` (after a build). Figures are
// printed, never asserted: they depend on the machine.
import { readFileSync } from 'node:fs';
import { AgentProcess, FAST_GOSSIP, statuses, waitUntil } from '../test/harness.js';

const POOL_SIZE = 10;

async function allSee(agents: AgentProcess[], want: (s: Record<string, string>) => boolean): Promise<void> {
  await waitUntil('pool view', async () => (await Promise.all(agents.map((a) => statuses(a)))).every(want), 120_000);
}

async function convergence(label: string, gossipFlags: string[]): Promise<void> {
  const agents: AgentProcess[] = [];
  try {
    // Start all ten apart, then have nine join the first at once: the clock measures gossip only.
    agents.push(
      ...(await Promise.all(
        Array.from({ length: POOL_SIZE }, (_, i) => AgentProcess.start(['-server', `-node=b${i}`, ...gossipFlags])),
      )),
    );
    const first = agents[0]!;
    const startMs = performance.now();
    await Promise.all(
      agents.slice(1).map((a) => a.fetch(`/v1/agent/join?address=${first.serfAddr}`, { method: 'POST' })),
    );
    const alive = (s: Record<string, string>) => Object.values(s).filter((v) => v === 'alive').length === POOL_SIZE;
    await allSee(agents, alive);
    const joinMs = performance.now() - startMs;
    const victim = agents.pop()!;
    await victim.kill('SIGKILL');
    const killedMs = performance.now();
    await allSee(agents, (s) => s[`b${POOL_SIZE - 1}.global`] === 'failed');
    const failMs = performance.now() - killedMs;
    console.log(
      `${label}: all ${POOL_SIZE} agents see ${POOL_SIZE} alive ${joinMs.toFixed(0)} ms after ${POOL_SIZE - 1} of them joined the first at once`,
    );
    console.log(
      `${label}: all ${POOL_SIZE - 1} survivors see the SIGKILLed agent failed after ${(failMs / 1000).toFixed(2)} s`,
    );
    const cpu = await idleUsage(agents[0]!, 10_000);
    console.log(
      `${label}: one server in the pool, idle: ${cpu.cpuPercent.toFixed(2)}% CPU, ${cpu.rssMb.toFixed(1)} MiB RSS`,
    );
  } finally {
    await Promise.all(agents.map((a) => a.kill()));
  }
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
  await convergence('default (WAN) timings', []);
  await convergence('fast timings (probe 100ms)', FAST_GOSSIP);
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
