import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { BcryptJob } from './bcrypt-worker.js';

/** Highest niceness: the kernel runs these threads only when nothing of normal priority wants the core. */
const LOWEST_PRIORITY_NICE = 19;
/** Workers left idle this long exit; the next login starts one again (a few milliseconds). */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * The threads that run bcrypt, shared by every userpass mount of the process.
 *
 * Why not bcrypt's own async API on the libuv pool: those threads run at the event loop's
 * priority, so a login storm takes the cores away from it and every other request waits
 * its turn behind hashing. Here each bcrypt thread is reniced to the lowest priority
 * (piscina's `niceIncrement`, through `@napi-rs/nice`): logins still use every idle core,
 * but the event loop preempts them whenever it has work, so other requests barely notice.
 */
let pool: Piscina<BcryptJob, string | boolean> | undefined;

function bcryptPool(): Piscina<BcryptJob, string | boolean> {
  pool ??= new Piscina<BcryptJob, string | boolean>({
    filename: new URL('./bcrypt-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: availableParallelism(),
    idleTimeout: IDLE_TIMEOUT_MS,
    niceIncrement: LOWEST_PRIORITY_NICE,
  });
  return pool;
}

export async function bcryptHash(password: string, cost: number): Promise<string> {
  return (await bcryptPool().run({ op: 'hash', password, cost })) as string;
}

export async function bcryptVerify(password: string, hash: string): Promise<boolean> {
  return (await bcryptPool().run({ op: 'verify', password, hash })) as boolean;
}
