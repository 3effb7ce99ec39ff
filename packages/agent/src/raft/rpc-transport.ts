import { InvalidRequestError } from '../errors.js';
import type { RpcClient } from '../rpc/rpc-client.js';
import type { AppendRequest, LogPosition, RaftTransport, VoteRequest } from './messages.js';

/**
 * Raft over the agent RPC port (`Raft.RequestVote`, `Raft.AppendEntries`). A call that
 * takes longer than `timeoutMs` counts as no answer, so a dead peer never holds up a
 * round for longer than that.
 */
export function rpcRaftTransport(rpc: RpcClient, timeoutMs: number): RaftTransport {
  return {
    requestVote: (peer, req) => rpc.call(peer.address, 'Raft.RequestVote', { ...req }, { timeoutMs }),
    appendEntries: (peer, req) => rpc.call(peer.address, 'Raft.AppendEntries', { ...req }, { timeoutMs }),
    timeoutNow: async (peer, req) => {
      await rpc.call(peer.address, 'Raft.TimeoutNow', { ...req }, { timeoutMs });
    },
  };
}

function int(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new InvalidRequestError(`raft: bad ${name}`);
  return v;
}

function str(v: unknown, name: string): string {
  if (typeof v !== 'string' || v === '') throw new InvalidRequestError(`raft: bad ${name}`);
  return v;
}

function optionalStr(v: unknown, name: string): string | undefined {
  return v === undefined ? undefined : str(v, name);
}

function position(v: unknown): LogPosition {
  const p = (v ?? {}) as Record<string, unknown>;
  return { index: int(p.index, 'last.index'), term: int(p.term, 'last.term') };
}

/** A vote request as received over RPC, checked field by field. */
export function parseVoteRequest(a: Record<string, unknown>): VoteRequest {
  return {
    term: int(a.term, 'term'),
    candidateId: str(a.candidateId, 'candidateId'),
    last: position(a.last),
    isTransfer: a.isTransfer === true,
    clusterId: optionalStr(a.clusterId, 'clusterId'),
  };
}

/** A leadership-transfer request as received over RPC. */
export function parseTimeoutNow(a: Record<string, unknown>): { term: number } {
  return { term: int(a.term, 'term') };
}

/** A heartbeat as received over RPC, checked field by field (the state is the FSM's to read). */
export function parseAppendRequest(a: Record<string, unknown>): AppendRequest {
  return {
    term: int(a.term, 'term'),
    leaderId: str(a.leaderId, 'leaderId'),
    leaderAddress: str(a.leaderAddress, 'leaderAddress'),
    last: position(a.last),
    commitIndex: int(a.commitIndex, 'commitIndex'),
    state: a.state,
    clusterId: optionalStr(a.clusterId, 'clusterId'),
    isBlank: a.isBlank === true,
  };
}
