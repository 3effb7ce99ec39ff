import { hashSync, verifySync } from '@node-rs/bcrypt';

/** One job for a bcrypt worker thread: `hash` answers the hash, `verify` whether the password matches. */
export type BcryptJob =
  | { op: 'hash'; password: string; cost: number }
  | { op: 'verify'; password: string; hash: string };

/**
 * Runs in a worker of the bcrypt pool (see bcrypt-pool.ts). The synchronous calls are right
 * here: this thread does nothing else, and its lowered priority is what keeps it from
 * competing with the event loop.
 */
export default function run(job: BcryptJob): string | boolean {
  if (job.op === 'hash') return hashSync(job.password, { cost: job.cost, version: '2a', rejectLongPasswords: true });
  return verifySync(job.password, job.hash);
}
