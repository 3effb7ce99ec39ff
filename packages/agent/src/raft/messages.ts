/** Where a log ends: the index and term of its last entry. Ordered by term, then index. */
export interface LogPosition {
  index: number;
  term: number;
}

/** True when `a` is strictly newer than `b` (Raft's "more up-to-date" order). */
export function isNewer(a: LogPosition, b: LogPosition): boolean {
  return a.term !== b.term ? a.term > b.term : a.index > b.index;
}

export interface VoteRequest {
  term: number;
  candidateId: string;
  last: LogPosition;
  /** The old leader asked for this election (leadership transfer): voters must not wait out their leader. */
  isTransfer?: boolean;
  /** The candidate's cluster (see `ClusterMeta`); undefined before it belongs to one. */
  clusterId?: string;
}

export interface VoteReply {
  term: number;
  isGranted: boolean;
}

/**
 * A leader's heartbeat. Ward's replicated state is small (the ACL tables), so instead
 * of log entries the leader ships the whole state whenever a follower's position
 * differs from its own; `last` says which position that state is.
 */
export interface AppendRequest {
  term: number;
  leaderId: string;
  /** The leader's RPC address, so followers can forward writes. */
  leaderAddress: string;
  last: LogPosition;
  commitIndex: number;
  state?: unknown;
  /** The leader's cluster (see `ClusterMeta`). */
  clusterId?: string;
  /** The leader's state holds nothing a user wrote (it decides which of two empty clusters joins the other). */
  isBlank?: boolean;
}

export interface AppendReply {
  term: number;
  /** The follower's position now equals the leader's. */
  isSuccess: boolean;
  last: LogPosition;
  /** The follower belongs to another cluster and will not follow this leader. */
  isRefused?: boolean;
}

/**
 * Which cluster a replicated state belongs to, and its voters: written by the first leader
 * (a random id and the servers that elected it) and grown by the leader as new servers
 * catch up. A server that holds it votes only for, and follows only, a leader of the same
 * cluster that is one of its voters; a newcomer becomes a voter only after it took the
 * leader's state, so a newcomer's own state never replaces the cluster's.
 */
export interface ClusterMeta {
  id: string;
  /** Raft ids (member names) of the voters. */
  voters: string[];
}

/** One voter of the server peer set. */
export interface RaftPeer {
  id: string;
  address: string;
}

/** How a node reaches the others (the agent RPC port in production, direct calls in tests). */
export interface RaftTransport {
  /** Asks `peer` for its vote; rejects when it cannot be reached in time (counted as no vote). */
  requestVote(peer: RaftPeer, req: VoteRequest): Promise<VoteReply>;
  /** Sends a heartbeat (with the state when `req.state` is set); rejects when `peer` does not answer in time. */
  appendEntries(peer: RaftPeer, req: AppendRequest): Promise<AppendReply>;
  /** Asks a follower to start an election now (a leader handing over before it leaves). */
  timeoutNow(peer: RaftPeer, req: { term: number }): Promise<void>;
}

/** The replicated state machine (the ACL store). */
export interface RaftFsm {
  /** Position of the state as it stands. */
  position(): LogPosition;
  /** The whole state, to ship to a follower that lags. */
  snapshot(): unknown;
  /** Replaces the state with a leader's; only called when that state is newer. */
  restore(state: unknown): void;
  /** Appends an entry that changes nothing in `term` (a new leader's first entry, as in Raft). */
  noop(term: number): void;
  /** The cluster this state belongs to; undefined for a state no leader has claimed yet. */
  cluster(): ClusterMeta | undefined;
  /** A leader's entry (next index, in `term`) that sets the cluster's identity and voters. */
  setCluster(meta: ClusterMeta, term: number): void;
  /** Holds nothing a user wrote (ACL bootstrap, policies, tokens): another cluster's state may replace it. */
  isBlank(): boolean;
}

/** `currentTerm` and `votedFor`, which Raft must keep across restarts. */
export interface RaftVoteState {
  term: number;
  votedFor: string | undefined;
}

export interface RaftStateStore {
  /** The saved term and vote; term 0 and no vote when nothing was saved yet. */
  load(): RaftVoteState;
  /** Must be durable before it returns (a vote is only valid once stored). */
  save(s: RaftVoteState): void;
}

export interface RaftTimings {
  /** A follower that hears no leader for a random time in [T, 2T) starts an election. */
  electionTimeoutMs: number;
  /** How often a leader contacts each follower. */
  heartbeatIntervalMs: number;
}

/** Raft's defaults: a dead leader is replaced within 1–2 s plus one election round. */
export const DEFAULT_RAFT: RaftTimings = { electionTimeoutMs: 1000, heartbeatIntervalMs: 100 };
