import { Worker } from 'node:worker_threads';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import type { Policy } from './policy.js';
import type { ParseAnswer, ParseJob } from './policy-parse-worker.js';
import { parsePolicy } from './policy-parser.js';

/**
 * Policy texts longer than this are parsed on a worker thread: 5,000 paths (330 KB) held the event
 * loop for 0.3 to 1.2 s (issue 28). Most policies are a few hundred bytes and parse in microseconds,
 * where a thread's start (tens of milliseconds) would only add time.
 */
export const OFF_THREAD_POLICY_CHARS = 32 * 1024;

/**
 * Parses `text` on a thread of its own; `wantsPolicy: false` only checks it (nothing comes back to
 * be copied into this thread, which for 5,000 rules costs 100 ms). Rejects as `parsePolicy` does.
 */
export function parseOffThread(name: string, text: string, wantsPolicy: true): Promise<Policy>;
export function parseOffThread(name: string, text: string, wantsPolicy: false): Promise<undefined>;
export function parseOffThread(name: string, text: string, wantsPolicy: boolean): Promise<Policy | undefined> {
  const job: ParseJob = { name, text, wantsPolicy };
  // No inherited flags: `--input-type` or `--eval` in a parent would stop the worker from starting.
  const worker = new Worker(new URL('./policy-parse-worker.js', import.meta.url), { workerData: job, execArgv: [] });
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: ParseAnswer) => {
      if ('invalid' in answer) reject(new InvalidRequestError(answer.invalid));
      else if ('failure' in answer) reject(new InternalError(`policy parse failed: ${answer.failure}`));
      else resolve(answer.policy);
    });
    worker.once('error', (err) => reject(new InternalError(`policy parse failed: ${err.message}`)));
    worker.once('exit', () => reject(new InternalError('policy parse worker stopped')));
  });
}

/** `parsePolicy`, on a worker thread for a long text. */
export function parsePolicyAnywhere(name: string, text: string): Promise<Policy> {
  return text.length > OFF_THREAD_POLICY_CHARS ? parseOffThread(name, text, true) : parsePolicy(name, text);
}
