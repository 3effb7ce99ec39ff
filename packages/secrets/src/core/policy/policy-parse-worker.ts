import { parentPort, workerData } from 'node:worker_threads';
import { InvalidRequestError } from '../../logical/errors.js';
import { parsePolicy } from './policy-parser.js';

/** What `parseOffThread` asks: the policy, or (`wantsPolicy: false`) only whether it parses. */
export interface ParseJob {
  name: string;
  text: string;
  wantsPolicy: boolean;
}

/** The parsed policy (when asked for), or why it does not parse. */
export type ParseAnswer =
  | { policy?: Awaited<ReturnType<typeof parsePolicy>> }
  | { invalid: string }
  | { failure: string };

const job = workerData as ParseJob;
let answer: ParseAnswer;
try {
  const policy = await parsePolicy(job.name, job.text);
  answer = job.wantsPolicy ? { policy } : {};
} catch (err) {
  answer = err instanceof InvalidRequestError ? { invalid: err.message } : { failure: String(err) };
}
parentPort?.postMessage(answer);
