import type { Clock, Logger, Random } from '@ward/base';
import type { RateLimiter } from './http/rate-limit.js';
import type { Store } from './store/index.js';

/** The hosted edition sells plans; the self-hosted (enterprise) edition is licensed as a whole. */
export type Edition = 'hosted' | 'self-hosted';
export const EDITIONS: readonly Edition[] = ['hosted', 'self-hosted'];

/** What every handler may use, built once at the composition root (`cli/serve.ts` or a test). */
export interface PlatformContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly edition: Edition;
  /** Counts API requests per token (or address); over the limit they are answered 429. */
  readonly rateLimiter: RateLimiter;
}
