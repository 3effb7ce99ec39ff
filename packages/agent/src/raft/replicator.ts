import type { Cancel, Clock, Logger } from '@ward/base';
import { InternalError } from '../errors.js';
import type { AppendReply, LogPosition, RaftFsm, RaftPeer, RaftTimings, RaftTransport } from './messages.js';

export interface ReplicatorOptions {
  self: RaftPeer;
  clock: Clock;
  log: Logger;
  transport: RaftTransport;
  fsm: RaftFsm;
  timings: RaftTimings;
  term: number;
  /** Who counts for commit and quorum. */
  voters(): RaftPeer[];
  /** Who gets the state: the voters and the servers catching up to become one. */
  targets(): RaftPeer[];
  clusterId(): string | undefined;
  /** A server that is not a voter holds the leader's state now. */
  onCaughtUp(peer: RaftPeer): void;
  /** A server refused this leader (it belongs to another cluster). */
  onRefused(peer: RaftPeer): void;
  onCommit(index: number): void;
  onHigherTerm(term: number): void;
  /** No majority answered within an election timeout: the leader must step down. */
  onQuorumLost(): void;
  /** The latest time a majority (this node included) had answered. */
  onQuorumContact(ms: number): void;
}

interface Follower {
  /** Position the follower last reported; undefined until it answers. */
  matched: LogPosition | undefined;
  lastContactMs: number | undefined;
  isInFlight: boolean;
  /** A newer state was written while a call was in flight: send again on its reply. */
  isResendWanted: boolean;
}

interface CommitWaiter {
  index: number;
  resolve(): void;
  reject(err: Error): void;
  cancel: Cancel;
}

/**
 * The leader's side of one term: heartbeats every follower, ships the state to those
 * whose position differs, advances the commit index to what a majority holds, and
 * notices when a majority stops answering (Raft's check-quorum).
 */
export class Replicator {
  readonly #followers = new Map<string, Follower>();
  /** Contacts are counted from here: the start of the term, or the end of a stall of this process. */
  #windowStartMs: number;
  #lastCheckMs: number;
  #waiters: CommitWaiter[] = [];
  #timer: Cancel | undefined;
  #isStopped = false;

  constructor(private readonly o: ReplicatorOptions) {
    this.#windowStartMs = o.clock.now();
    this.#lastCheckMs = this.#windowStartMs;
  }

  start(): void {
    this.#round();
  }

  stop(): void {
    this.#isStopped = true;
    this.#timer?.();
    for (const w of this.#waiters) {
      w.cancel();
      w.reject(new InternalError('leadership lost while committing'));
    }
    this.#waiters = [];
  }

  /** Resolves once a majority holds `index`; sends to every follower now. */
  commit(index: number): Promise<void> {
    const p = new Promise<void>((resolve, reject) => {
      const cancel = this.o.clock.setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new InternalError('timed out waiting for a quorum to commit'));
      }, 2 * this.o.timings.electionTimeoutMs);
      const waiter: CommitWaiter = { index, resolve, reject, cancel };
      this.#waiters.push(waiter);
    });
    this.#sendAll();
    this.#advanceCommit();
    return p;
  }

  /** A follower that holds exactly the leader's state (the best successor), if any answered. */
  upToDateFollower(): RaftPeer | undefined {
    const last = this.o.fsm.position();
    return this.o.voters().find((p) => {
      const m = this.#followers.get(p.id)?.matched;
      return p.id !== this.o.self.id && m?.index === last.index && m.term === last.term;
    });
  }

  #round(): void {
    if (this.#isStopped) return;
    this.#sendAll();
    this.#checkQuorum();
    if (this.#isStopped) return;
    this.#timer = this.o.clock.setTimeout(() => this.#round(), this.o.timings.heartbeatIntervalMs);
  }

  #sendAll(): void {
    for (const peer of this.o.targets()) if (peer.id !== this.o.self.id) this.#send(peer);
  }

  #follower(id: string): Follower {
    let f = this.#followers.get(id);
    if (!f) {
      f = { matched: undefined, lastContactMs: undefined, isInFlight: false, isResendWanted: false };
      this.#followers.set(id, f);
    }
    return f;
  }

  #send(peer: RaftPeer): void {
    const f = this.#follower(peer.id);
    if (f.isInFlight) {
      f.isResendWanted = true;
      return;
    }
    const last = this.o.fsm.position();
    const isBehind = !f.matched || f.matched.index !== last.index || f.matched.term !== last.term;
    f.isInFlight = true;
    f.isResendWanted = false;
    this.o.transport
      .appendEntries(peer, {
        term: this.o.term,
        leaderId: this.o.self.id,
        leaderAddress: this.o.self.address,
        last,
        commitIndex: this.#commitIndex(),
        state: isBehind ? this.o.fsm.snapshot() : undefined,
        clusterId: this.o.clusterId(),
        isBlank: this.o.fsm.isBlank(),
      })
      .then(
        (reply) => this.#onReply(peer, f, reply),
        () => {
          f.isInFlight = false;
        },
      );
  }

  #onReply(peer: RaftPeer, f: Follower, reply: AppendReply): void {
    f.isInFlight = false;
    if (this.#isStopped) return;
    const isVoter = this.o.voters().some((p) => p.id === peer.id);
    if (reply.isRefused) {
      this.o.onRefused(peer);
      return;
    }
    // A server that is not a voter cannot depose the leader (its term may be its own cluster's).
    if (reply.term > this.o.term) {
      if (isVoter) this.o.onHigherTerm(reply.term);
      return;
    }
    f.lastContactMs = this.o.clock.now();
    f.matched = reply.last;
    this.#advanceCommit();
    const last = this.o.fsm.position();
    const isBehind = reply.last.index !== last.index || reply.last.term !== last.term;
    if (!isVoter && reply.isSuccess && !isBehind) this.o.onCaughtUp(peer);
    if (f.isResendWanted || isBehind) this.#send(peer);
  }

  /** The highest index that a majority of voters (this node included) hold in this term. */
  #commitIndex(): number {
    const own = this.o.fsm.position();
    const held = this.o
      .voters()
      .map((p) => {
        if (p.id === this.o.self.id) return own.index;
        const m = this.#followers.get(p.id)?.matched;
        return m && m.term === own.term ? m.index : 0;
      })
      .sort((a, b) => b - a);
    return held[Math.floor(held.length / 2)] ?? 0;
  }

  #advanceCommit(): void {
    const index = this.#commitIndex();
    this.o.onCommit(index);
    const done = this.#waiters.filter((w) => w.index <= index);
    this.#waiters = this.#waiters.filter((w) => w.index > index);
    for (const w of done) {
      w.cancel();
      w.resolve();
    }
  }

  #checkQuorum(): void {
    const now = this.o.clock.now();
    const windowMs = this.o.timings.electionTimeoutMs;
    // When this process itself stalled (a blocked event loop: GC, a wasm compile), the
    // silence was ours, not the followers': give them a fresh window to answer.
    if (now - this.#lastCheckMs > 2 * this.o.timings.heartbeatIntervalMs) this.#windowStartMs = now;
    this.#lastCheckMs = now;
    const voters = this.o.voters();
    const since = (p: RaftPeer) => Math.max(this.#followers.get(p.id)?.lastContactMs ?? 0, this.#windowStartMs);
    const recent = voters.map((p) => (p.id === this.o.self.id ? now : since(p))).sort((a, b) => b - a);
    const quorumContactMs = recent[Math.floor(voters.length / 2)] ?? now;
    this.o.onQuorumContact(quorumContactMs);
    if (now - quorumContactMs > windowMs) this.o.onQuorumLost();
  }
}
