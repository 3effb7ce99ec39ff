import { join } from 'node:path';
import { readDurableJson, writeDurable } from '../persist/durable-file.js';
import type { RaftStateStore, RaftVoteState } from './messages.js';

/** Keeps the term and vote in memory only (no data dir, as in dev mode). */
export function memoryRaftState(): RaftStateStore {
  let s: RaftVoteState = { term: 0, votedFor: undefined };
  return {
    load: () => ({ ...s }),
    save: (next) => {
      s = { ...next };
    },
  };
}

/** Keeps the term and vote in `<dataDir>/raft/state.json`, fsynced before a vote is answered. */
export function fileRaftState(dataDir: string): RaftStateStore {
  const path = join(dataDir, 'raft', 'state.json');
  return {
    load: () => {
      const v = readDurableJson(path) as { term?: unknown; votedFor?: unknown } | undefined;
      return {
        term: typeof v?.term === 'number' ? v.term : 0,
        votedFor: typeof v?.votedFor === 'string' ? v.votedFor : undefined,
      };
    },
    save: (s) => writeDurable(path, JSON.stringify(s)),
  };
}
