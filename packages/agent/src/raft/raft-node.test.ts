import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import type { ClusterMeta, LogPosition, RaftFsm, RaftPeer, RaftTransport } from './messages.js';
import { RaftNode } from './raft-node.js';
import { memoryRaftState } from './state-store.js';

/** A replicated counter: enough state to see which position a node holds. */
class CounterFsm implements RaftFsm {
  pos: LogPosition = { index: 0, term: 0 };
  value = 0;
  meta: ClusterMeta | undefined;
  position(): LogPosition {
    return { ...this.pos };
  }
  snapshot(): unknown {
    return { pos: this.pos, value: this.value, meta: this.meta };
  }
  restore(state: unknown): void {
    const s = state as { pos: LogPosition; value: number; meta: ClusterMeta | undefined };
    this.pos = { ...s.pos };
    this.value = s.value;
    this.meta = s.meta && structuredClone(s.meta);
  }
  cluster(): ClusterMeta | undefined {
    return this.meta && structuredClone(this.meta);
  }
  setCluster(meta: ClusterMeta, term: number): void {
    this.meta = structuredClone(meta);
    this.pos = { index: this.pos.index + 1, term };
  }
  isBlank(): boolean {
    return this.value === 0;
  }
  noop(term: number): void {
    this.pos = { index: this.pos.index + 1, term };
  }
  increment(term: number): void {
    this.value++;
    this.pos = { index: this.pos.index + 1, term };
  }
}

const TIMINGS = { electionTimeoutMs: 1000, heartbeatIntervalMs: 100 };

/** Raft nodes wired by direct calls on one fake clock; a node can be cut off (as if killed). */
class Cluster {
  readonly clock = new FakeClock(0);
  readonly nodes = new Map<string, { raft: RaftNode; fsm: CounterFsm }>();
  readonly down = new Set<string>();
  readonly peers: RaftPeer[];

  constructor(ids: string[]) {
    this.peers = ids.map((id) => ({ id, address: `${id}:4647` }));
    for (const peer of this.peers) {
      const fsm = new CounterFsm();
      const raft = new RaftNode({
        self: peer,
        clock: this.clock,
        random: new SeededRandom(peer.id),
        log: silentLogger,
        transport: this.#transport(peer.id),
        fsm,
        store: memoryRaftState(),
        timings: TIMINGS,
        peers: () => this.peers,
        canBootstrap: () => true,
      });
      this.nodes.set(peer.id, { raft, fsm });
    }
    for (const n of this.nodes.values()) n.raft.start();
  }

  #transport(from: string): RaftTransport {
    const reach = (to: string) => {
      if (this.down.has(from) || this.down.has(to)) return Promise.reject(new Error('connection refused'));
      return Promise.resolve(this.nodes.get(to)!.raft);
    };
    return {
      requestVote: async (peer, req) => (await reach(peer.id)).handleVote(req),
      appendEntries: async (peer, req) => (await reach(peer.id)).handleAppend(req),
      timeoutNow: async (peer, req) => (await reach(peer.id)).handleTimeoutNow(req),
    };
  }

  /** Gossip joins two pools: each now sees the other's servers (as `peers`) and can call them. */
  merge(other: Cluster): void {
    for (const [id, n] of other.nodes) this.nodes.set(id, n);
    for (const [id, n] of this.nodes) other.nodes.set(id, n);
    const all = [...this.peers, ...other.peers];
    this.peers.splice(0, this.peers.length, ...all);
    other.peers.splice(0, other.peers.length, ...all);
  }

  kill(id: string): void {
    this.down.add(id);
    this.nodes.get(id)!.raft.stop();
  }

  live(): Array<{ raft: RaftNode; fsm: CounterFsm }> {
    return [...this.nodes].filter(([id]) => !this.down.has(id)).map(([, n]) => n);
  }

  leaders(): RaftNode[] {
    return this.live()
      .map((n) => n.raft)
      .filter((r) => r.isLeader);
  }

  /** Advances fake time in small steps, letting replies (microtasks) run between. */
  async run(ms: number, stepMs = 10): Promise<void> {
    for (let t = 0; t < ms; t += stepMs) {
      this.clock.advance(stepMs);
      for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Fake milliseconds until exactly one live leader that every live node follows. */
  async timeToAgreedLeader(limitMs: number): Promise<number> {
    for (let t = 0; t <= limitMs; t += 10) {
      const leaders = this.leaders();
      const leader = leaders[0];
      if (leaders.length === 1 && this.live().every((n) => n.raft.leader?.id === leader?.leader?.id)) return t;
      await this.run(10);
    }
    throw new Error('no agreed leader');
  }
}

describe('raft cluster identity (issue 28 point 1)', () => {
  it('never lets a joined pool with its own state replace ours, however far ahead its index', async () => {
    const ours = new Cluster(['a', 'b', 'c']);
    await ours.timeToAgreedLeader(2000);
    const ourLeader = ours.leaders()[0]!;
    const leaderFsm = ours.nodes.get(ourLeader.leader!.id)!.fsm;
    await ourLeader.apply(() => leaderFsm.increment(ourLeader.term));
    const rogue = new Cluster(['x']);
    await rogue.timeToAgreedLeader(2000);
    const x = rogue.nodes.get('x')!;
    for (let i = 0; i < 20; i++) await x.raft.apply(() => x.fsm.increment(x.raft.term));
    ours.merge(rogue);
    await ours.run(5000);
    for (const id of ['a', 'b', 'c']) {
      const n = ours.nodes.get(id)!;
      assert.equal(n.fsm.value, 1, `${id} kept our state`);
      assert.equal(n.raft.leader?.id, ourLeader.leader!.id, `${id} follows our leader`);
    }
    assert.deepEqual(
      ourLeader.voters().map((p) => p.id),
      ['a', 'b', 'c'],
    );
    assert.equal(x.fsm.value, 20, 'and the rogue keeps its own');
    assert.ok(x.raft.isLeader);
  });

  it('merges two empty single-server clusters into one, whichever is joined to which', async () => {
    for (const [x, y] of [
      ['p', 'q'],
      ['q', 'p'],
    ] as const) {
      const one = new Cluster([x]);
      const two = new Cluster([y]);
      await one.timeToAgreedLeader(2000);
      await two.timeToAgreedLeader(2000);
      one.merge(two);
      // Each pool keeps its own clock: run both.
      await Promise.all([one.run(5000), two.run(5000)]);
      const leaders = one.leaders();
      assert.equal(leaders.length, 1, `${x}+${y}: one leader`);
      assert.deepEqual(
        leaders[0]!
          .voters()
          .map((p) => p.id)
          .sort(),
        ['p', 'q'],
      );
      for (const n of one.live()) assert.equal(n.raft.leader?.id, leaders[0]!.leader!.id);
    }
  });

  it('takes in a blank server: first the state, then a vote', async () => {
    const ours = new Cluster(['a', 'b', 'c']);
    await ours.timeToAgreedLeader(2000);
    const leader = ours.leaders()[0]!;
    const fsm = ours.nodes.get(leader.leader!.id)!.fsm;
    await leader.apply(() => fsm.increment(leader.term));
    // It elected itself alone, so it has a cluster of its own, but nothing in it.
    const fresh = new Cluster(['d']);
    await fresh.timeToAgreedLeader(2000);
    ours.merge(fresh);
    await ours.run(3000);
    const d = ours.nodes.get('d')!;
    assert.equal(d.fsm.value, 1);
    assert.equal(d.raft.leader?.id, leader.leader!.id);
    assert.deepEqual(
      leader
        .voters()
        .map((p) => p.id)
        .sort(),
      ['a', 'b', 'c', 'd'],
    );
  });
});

describe('raft election', () => {
  it('elects exactly one leader that all three servers follow, within two election timeouts', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    assert.ok((await c.timeToAgreedLeader(2000)) <= 2000);
    const leader = c.leaders()[0]!;
    assert.equal(leader.term, 1);
    for (const n of c.live()) assert.equal(n.raft.term, leader.term);
    // Heartbeats keep it: no new term after many election timeouts.
    await c.run(10_000);
    assert.equal(c.leaders()[0], leader);
    assert.equal(leader.term, 1);
  });

  it('replaces a killed leader: followers first report no leader, then agree on a new one in a higher term', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    const old = c.leaders()[0]!;
    c.kill(old.leader!.id);
    // Within one election timeout nothing has changed yet; by 2T every follower gave up on it.
    await c.run(2000);
    const survivors = c.live().map((n) => n.raft);
    assert.ok(survivors.every((r) => r.leader?.id !== old.leader?.id));
    const t = await c.timeToAgreedLeader(3000);
    assert.ok(t <= 3000);
    assert.ok(c.leaders()[0]!.term > old.term);
  });

  it('hands leadership over at once when the leader leaves gracefully, well within an election timeout', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    await c.run(300);
    const old = c.leaders()[0]!;
    const oldId = old.leader!.id;
    const oldTerm = old.term;
    await old.transferLeadership();
    c.kill(oldId);
    const t = await c.timeToAgreedLeader(3000);
    assert.ok(t < TIMINGS.electionTimeoutMs, `took ${t} ms`);
    assert.ok(c.leaders()[0]!.term > oldTerm);
  });

  it('has no leader without a majority: a lone survivor of three stays candidate, an old leader steps down', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    const leader = c.leaders()[0]!;
    const followers = [...c.nodes.keys()].filter((id) => id !== leader.leader?.id);
    for (const id of followers) c.kill(id);
    await c.run(3000);
    assert.equal(leader.isLeader, false);
    assert.equal(leader.leader, undefined);
    await c.run(10_000);
    assert.equal(c.leaders().length, 0);
  });

  it('commits a write once a majority holds it and ships the state to every follower', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    const leader = c.leaders()[0]!;
    const fsm = c.nodes.get(leader.leader!.id)!.fsm;
    const done = leader.apply(() => fsm.increment(leader.term));
    await c.run(100);
    await done;
    assert.equal(leader.commitIndex, fsm.pos.index);
    await c.run(300);
    for (const n of c.live()) assert.deepEqual([n.fsm.value, n.fsm.pos], [1, fsm.pos]);
  });

  it('refuses a write on a follower and fails a write the leader cannot commit', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    const leader = c.leaders()[0]!;
    const follower = c.live().find((n) => !n.raft.isLeader)!;
    await assert.rejects(
      follower.raft.apply(() => undefined),
      { code: 'internal' },
    );
    for (const id of [...c.nodes.keys()].filter((x) => x !== leader.leader?.id)) c.kill(id);
    const fsm = c.nodes.get(leader.leader!.id)!.fsm;
    const write = leader.apply(() => fsm.increment(leader.term));
    const settled = write.then(
      () => 'committed',
      (e: { code: string }) => e.code,
    );
    await c.run(3000);
    assert.equal(await settled, 'internal');
  });

  it('never applies an older state over a newer one, and denies votes to a candidate with an older log', async () => {
    const c = new Cluster(['a', 'b', 'c']);
    await c.timeToAgreedLeader(2000);
    const follower = c.live().find((n) => !n.raft.isLeader)!;
    const before = follower.fsm.position();
    // A deposed leader of an earlier term pushes an old state: refused, state unchanged.
    const stale = follower.raft.handleAppend({
      term: follower.raft.term - 1,
      leaderId: 'x',
      leaderAddress: 'x:1',
      last: { index: 99, term: 0 },
      commitIndex: 99,
      state: { pos: { index: 99, term: 0 }, value: 42 },
    });
    assert.equal(stale.isSuccess, false);
    assert.deepEqual(follower.fsm.position(), before);
    // A current-term message with an older position does not replace the state either.
    follower.raft.handleAppend({
      term: follower.raft.term,
      leaderId: follower.raft.leader!.id,
      leaderAddress: follower.raft.leader!.address,
      last: { index: 0, term: 0 },
      commitIndex: 0,
      state: { pos: { index: 0, term: 0 }, value: -1 },
    });
    assert.deepEqual(follower.fsm.position(), before);
  });

  it('denies its vote to a candidate whose log is older, and votes once per term', () => {
    const fsm = new CounterFsm();
    fsm.pos = { index: 5, term: 2 };
    const node = new RaftNode({
      self: { id: 'a', address: 'a:1' },
      clock: new FakeClock(0),
      random: new SeededRandom('a'),
      log: silentLogger,
      transport: {
        requestVote: () => Promise.reject(new Error()),
        appendEntries: () => Promise.reject(new Error()),
        timeoutNow: () => Promise.reject(new Error()),
      },
      fsm,
      store: memoryRaftState(),
      timings: TIMINGS,
      peers: () => [],
      canBootstrap: () => true,
    });
    assert.equal(node.handleVote({ term: 3, candidateId: 'b', last: { index: 9, term: 1 } }).isGranted, false);
    assert.equal(node.handleVote({ term: 3, candidateId: 'c', last: { index: 5, term: 2 } }).isGranted, true);
    assert.equal(node.handleVote({ term: 3, candidateId: 'd', last: { index: 6, term: 2 } }).isGranted, false);
    assert.equal(node.term, 3);
  });
});
