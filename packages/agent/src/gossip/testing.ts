import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import type { GossipConfig } from './config.js';
import { Memberlist } from './memberlist.js';
import { MemoryNetwork } from './memory-network.js';

/** Fast timings for in-memory tests (fake time: these cost nothing real). */
export const TEST_GOSSIP: GossipConfig = {
  probeIntervalMs: 100,
  probeTimeoutMs: 40,
  suspicionMult: 4,
  suspicionMaxTimeoutMult: 6,
  indirectChecks: 3,
  retransmitMult: 4,
  gossipIntervalMs: 20,
  gossipNodes: 3,
  pushPullIntervalMs: 1000,
  tcpTimeoutMs: 200,
  reconnectIntervalMs: 500,
  reapIntervalMs: 1000,
  reconnectTimeoutMs: 60_000,
  tombstoneTimeoutMs: 30_000,
};

/** A set of memberlists on one `MemoryNetwork` driven by one `FakeClock`. */
export class TestCluster {
  readonly clock = new FakeClock(0);
  readonly network = new MemoryNetwork(this.clock);
  readonly nodes: Memberlist[] = [];
  #seed = 0;

  add(name: string, config: GossipConfig = TEST_GOSSIP): Memberlist {
    const m = new Memberlist({
      name,
      tags: { role: 'test' },
      transport: this.network.createTransport(),
      clock: this.clock,
      random: new SeededRandom(`${name}:${this.#seed++}`),
      log: silentLogger,
      config,
    });
    m.start();
    this.nodes.push(m);
    return m;
  }

  /** Moves fake time forward in small steps, letting deliveries (microtasks) run between. */
  async run(ms: number, stepMs = 5): Promise<void> {
    for (let t = 0; t < ms; t += stepMs) {
      this.clock.advance(stepMs);
      for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** The status `viewer` holds for member `name`, or undefined. */
  stateOf(viewer: Memberlist, name: string): string | undefined {
    return viewer.members().find((m) => m.name === name)?.state;
  }
}
