/** Raft among the server agents: leader election, log replication and the persisted state of the ACLs. @module */
import type { Cancel, Clock, Logger, Random } from '@ward/base';
import { InternalError } from '../errors.js';
import type {
  AppendReply,
  AppendRequest,
  ClusterMeta,
  LogPosition,
  RaftFsm,
  RaftPeer,
  RaftStateStore,
  RaftTransport,
  VoteReply,
  VoteRequest,
} from './messages.js';
import { isNewer, type RaftTimings } from './messages.js';

export { DEFAULT_RAFT, type RaftTimings } from './messages.js';

import { Replicator } from './replicator.js';

export type RaftRole = 'Follower' | 'Candidate' | 'Leader' | 'Shutdown';

export interface RaftNodeOptions {
  self: RaftPeer;
  clock: Clock;
  random: Random;
  log: Logger;
  transport: RaftTransport;
  fsm: RaftFsm;
  store: RaftStateStore;
  timings: RaftTimings;
  /** The voters, this node included (the servers of the region that have not left). */
  peers(): RaftPeer[];
  /** Whether enough servers are known to hold the first election (`bootstrap_expect`). */
  canBootstrap(): boolean;
}

/**
 * One server's Raft: terms, randomized election timeouts, majority votes with the
 * up-to-date-log restriction, leader heartbeats, and a leader that steps down when it
 * loses contact with a majority. Only the leader changes the state machine; a new
 * leader first appends a no-op in its term, so its position is newer than any
 * follower's and a follower never replaces a newer state with an older one.
 */
export class RaftNode {
  role: RaftRole = 'Follower';
  term: number;
  #votedFor: string | undefined;
  leader: RaftPeer | undefined;
  commitIndex = 0;
  /** When this node last heard from a leader (or, on a leader, from a majority). */
  lastContactMs: number | undefined;
  #electionTimer: Cancel | undefined;
  #replicator: Replicator | undefined;
  /** Leaders (or followers) of another cluster already logged, so each is named once. */
  readonly #refusedLogged = new Set<string>();

  constructor(private readonly o: RaftNodeOptions) {
    const saved = o.store.load();
    this.term = saved.term;
    this.#votedFor = saved.votedFor;
  }

  start(): void {
    // A single-server cluster has nobody to wait for: it elects itself at once.
    if (this.#voters().length === 1 && this.o.canBootstrap()) this.#startElection();
    else this.#resetElectionTimer();
  }

  stop(): void {
    this.role = 'Shutdown';
    this.#electionTimer?.();
    this.#replicator?.stop();
  }

  get isLeader(): boolean {
    return this.role === 'Leader';
  }

  get position(): LogPosition {
    return this.o.fsm.position();
  }

  /** The voters: the cluster's (see `ClusterMeta`) that gossip shows, or all servers before there is a cluster. */
  voters(): RaftPeer[] {
    return this.#voters();
  }

  /** Number of voters needed for a decision. */
  quorum(): number {
    return Math.floor(this.#voters().length / 2) + 1;
  }

  /**
   * Runs `change` on the leader's state machine and resolves once a majority holds the
   * result (or rejects after two election timeouts). Throws on a follower.
   */
  async apply<T>(change: () => Promise<T> | T): Promise<T> {
    const replicator = this.#replicator;
    if (this.role !== 'Leader' || !replicator) throw new InternalError('No cluster leader');
    const result = await change();
    await replicator.commit(this.position.index);
    return result;
  }

  /**
   * Leadership transfer before a graceful leave: asks the most up-to-date follower to
   * start an election at once, so the cluster need not wait out an election timeout.
   * Resolves when asked (or when there is nobody to ask); the caller then stops.
   */
  async transferLeadership(): Promise<void> {
    const successor = this.role === 'Leader' ? this.#replicator?.upToDateFollower() : undefined;
    if (!successor) return;
    this.o.log.info('raft: transferring leadership', { to: successor.id });
    await this.o.transport.timeoutNow(successor, { term: this.term }).catch(() => {});
  }

  /** A leader's request to elect now (see `transferLeadership`); ignored from an older term. */
  handleTimeoutNow(req: { term: number }): void {
    if (req.term !== this.term || this.role !== 'Follower') return;
    this.#startElection(true);
  }

  handleVote(req: VoteRequest): VoteReply {
    // Only a voter of our own cluster may lead it; a stranger's term is not even adopted.
    const meta = this.o.fsm.cluster();
    if (meta && (req.clusterId !== meta.id || !meta.voters.includes(req.candidateId))) {
      return { term: this.term, isGranted: false };
    }
    if (req.term < this.term) return { term: this.term, isGranted: false };
    // Leader stickiness: while a leader is heard from, ignore a disrupting candidate
    // (unless that leader asked for the election).
    if (req.term > this.term && !req.isTransfer && this.#hasLiveLeader()) return { term: this.term, isGranted: false };
    if (req.term > this.term) this.#stepDown(req.term, undefined);
    const canVote = this.#votedFor === undefined || this.#votedFor === req.candidateId;
    const isUpToDate = !isNewer(this.position, req.last);
    if (!canVote || !isUpToDate) return { term: this.term, isGranted: false };
    this.#votedFor = req.candidateId;
    this.#persist();
    this.#resetElectionTimer();
    return { term: this.term, isGranted: true };
  }

  handleAppend(req: AppendRequest): AppendReply {
    const meta = this.o.fsm.cluster();
    const isStranger = meta !== undefined && (req.clusterId !== meta.id || !meta.voters.includes(req.leaderId));
    // Of two empty clusters joined together, the one with the smaller id gives way (both
    // giving way at once would leave two non-voters and no leader).
    const isYielding = !req.isBlank || meta === undefined || (req.clusterId ?? '') > meta.id;
    const isJoining = this.#canJoin(meta) && isYielding && (isStranger || req.term < this.term);
    if (isStranger && !isJoining) {
      this.#logRefusal(
        `leader:${req.leaderId}`,
        'raft: refusing leader of another cluster: this server holds its own ACL state',
        {
          leader: req.leaderId,
          leader_cluster: req.clusterId ?? '',
          cluster: meta.id,
        },
      );
      return { term: this.term, isSuccess: false, last: this.position, isRefused: true };
    }
    if (isJoining) {
      // Nothing of ours to lose (no ACL bootstrap, policy or token, no other voter): take
      // this leader's cluster, term and state, as a fresh server does.
      this.o.log.info('raft: joining the cluster of leader', { leader: req.leaderId, cluster: req.clusterId ?? '' });
      this.#replicator?.stop();
      this.#replicator = undefined;
      this.role = 'Follower';
      this.term = req.term;
      this.#votedFor = undefined;
      this.#persist();
    }
    if (req.term < this.term) return { term: this.term, isSuccess: false, last: this.position };
    if (req.term > this.term || this.role !== 'Follower') this.#stepDown(req.term, undefined);
    if (this.leader?.id !== req.leaderId) this.o.log.info('raft: following leader', { leader: req.leaderId });
    this.leader = { id: req.leaderId, address: req.leaderAddress };
    this.lastContactMs = this.o.clock.now();
    this.#resetElectionTimer();
    if (req.state !== undefined && (isJoining || isNewer(req.last, this.position))) this.o.fsm.restore(req.state);
    const mine = this.position;
    const isSuccess = mine.index === req.last.index && mine.term === req.last.term;
    if (isSuccess) this.commitIndex = Math.max(this.commitIndex, Math.min(req.commitIndex, mine.index));
    return { term: this.term, isSuccess, last: mine };
  }

  /** Every server of the region that has not left, this one included: where the leader replicates to. */
  #targets(): RaftPeer[] {
    const peers = this.o.peers();
    return peers.some((p) => p.id === this.o.self.id) ? peers : [...peers, this.o.self];
  }

  #voters(): RaftPeer[] {
    const meta = this.o.fsm.cluster();
    const all = this.#targets();
    return meta ? all.filter((p) => meta.voters.includes(p.id)) : all;
  }

  #isVoter(): boolean {
    const meta = this.o.fsm.cluster();
    return !meta || meta.voters.includes(this.o.self.id);
  }

  /**
   * Whether this server may give up its cluster for another leader's: only while its state
   * holds nothing a user wrote and no other server votes in its cluster (a server that
   * elected itself alone before it was joined to the pool).
   */
  #canJoin(meta: ClusterMeta | undefined): boolean {
    return this.o.fsm.isBlank() && (meta === undefined || meta.voters.every((v) => v === this.o.self.id));
  }

  /** Logs a refusal once per `key` (the role refused and its id). */
  #logRefusal(key: string, msg: string, fields: Record<string, string>): void {
    if (this.#refusedLogged.has(key)) return;
    this.#refusedLogged.add(key);
    this.o.log.warn(msg, fields);
  }

  #hasLiveLeader(): boolean {
    if (this.role === 'Leader') return true;
    const last = this.lastContactMs;
    return (
      this.leader !== undefined && last !== undefined && this.o.clock.now() - last < this.o.timings.electionTimeoutMs
    );
  }

  #resetElectionTimer(): void {
    this.#electionTimer?.();
    if (this.role === 'Shutdown' || this.role === 'Leader') return;
    const base = this.o.timings.electionTimeoutMs;
    const b = this.o.random.bytes(4);
    const fraction = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
    this.#electionTimer = this.o.clock.setTimeout(() => this.#startElection(), base + (fraction / 2 ** 32) * base);
  }

  #startElection(isTransfer = false): void {
    if (this.role === 'Shutdown' || this.role === 'Leader') return;
    // Before the first leader, wait until bootstrap_expect servers are known.
    // Before the first leader, wait until bootstrap_expect servers are known; a server the
    // leader has not made a voter yet (it is still catching up) never stands.
    if ((this.term === 0 && !this.o.canBootstrap()) || !this.#isVoter()) {
      this.#resetElectionTimer();
      return;
    }
    if (this.leader) this.o.log.warn('raft: heartbeat timeout reached, starting election', { last: this.leader.id });
    this.role = 'Candidate';
    this.leader = undefined;
    this.term++;
    this.#votedFor = this.o.self.id;
    this.#persist();
    this.#resetElectionTimer();
    const term = this.term;
    const voters = this.#voters();
    const needed = Math.floor(voters.length / 2) + 1;
    let votes = 1;
    const tally = () => {
      if (this.role === 'Candidate' && this.term === term && votes >= needed) this.#becomeLeader();
    };
    tally();
    const req: VoteRequest = {
      term,
      candidateId: this.o.self.id,
      last: this.position,
      isTransfer,
      clusterId: this.o.fsm.cluster()?.id,
    };
    for (const peer of voters) {
      if (peer.id === this.o.self.id) continue;
      this.o.transport.requestVote(peer, req).then(
        (reply) => {
          if (reply.term > this.term) return this.#stepDown(reply.term, undefined);
          if (reply.isGranted) votes++;
          tally();
        },
        () => {},
      );
    }
  }

  #becomeLeader(): void {
    this.o.log.info('raft: election won', { term: this.term, tally: this.quorum() });
    this.#electionTimer?.();
    this.role = 'Leader';
    this.leader = this.o.self;
    this.lastContactMs = this.o.clock.now();
    this.o.fsm.noop(this.term);
    const meta = this.o.fsm.cluster();
    // The first leader names the cluster; its voters are the servers that elected it.
    if (!meta)
      this.o.fsm.setCluster({ id: newClusterId(this.o.random), voters: this.#voters().map((p) => p.id) }, this.term);
    this.#replicator = new Replicator({
      ...this.o,
      term: this.term,
      voters: () => this.#voters(),
      targets: () => this.#targets(),
      clusterId: () => this.o.fsm.cluster()?.id,
      onCaughtUp: (peer) => this.#addVoter(peer),
      onRefused: (peer) =>
        this.#logRefusal(
          `server:${peer.id}`,
          'raft: refusing server: it holds the ACL state of another cluster; it is not a voter and its state is ignored (wipe its data dir to let it join)',
          {
            server: peer.id,
            address: peer.address,
          },
        ),
      onCommit: (index) => {
        this.commitIndex = Math.max(this.commitIndex, index);
      },
      onHigherTerm: (term) => this.#stepDown(term, undefined),
      onQuorumLost: () => {
        this.o.log.warn('raft: failed to contact a quorum of nodes, stepping down');
        this.#stepDown(this.term, undefined);
      },
      onQuorumContact: (ms) => {
        this.lastContactMs = ms;
      },
    });
    this.#replicator.start();
  }

  /** A server that took this leader's state becomes a voter (an entry of its own, replicated). */
  #addVoter(peer: RaftPeer): void {
    const meta = this.o.fsm.cluster();
    if (this.role !== 'Leader' || !meta || meta.voters.includes(peer.id)) return;
    this.o.log.info('raft: adding voter', { server: peer.id });
    this.o.fsm.setCluster({ ...meta, voters: [...meta.voters, peer.id] }, this.term);
  }

  #stepDown(term: number, leader: RaftPeer | undefined): void {
    if (this.role === 'Shutdown') return;
    if (this.role === 'Leader') this.o.log.info('raft: leader stepping down', { term: this.term });
    this.#replicator?.stop();
    this.#replicator = undefined;
    this.role = 'Follower';
    this.leader = leader;
    if (term > this.term) {
      this.term = term;
      this.#votedFor = undefined;
      this.#persist();
    }
    this.#resetElectionTimer();
  }

  #persist(): void {
    this.o.store.save({ term: this.term, votedFor: this.#votedFor });
  }
}

/** A cluster id: 16 random bytes, hex. */
function newClusterId(random: Random): string {
  return Buffer.from(random.bytes(16)).toString('hex');
}
