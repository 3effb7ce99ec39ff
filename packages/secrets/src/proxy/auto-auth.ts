import type { Cancel, Clock, Logger, Random } from '@ward/base';
import { ApiError, type Client, type SecretAuth } from '@ward/secrets-client';
import type { AuthMethod } from './auth-method.js';
import { Backoff } from './backoff.js';
import type { TokenSink } from './file-sink.js';

export interface AutoAuthOptions {
  /** A client of the server without a token; the proxy's own requests go through it. */
  client: Client;
  method: AuthMethod;
  sinks: TokenSink[];
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Defaults: 1 s and 5 minutes, as established. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** How long a token found valid after a refusal is not checked again. */
const RECHECK_AFTER_MS = 1_000;

/** Renew when this share of the token's TTL has passed, leaving a third of it for retries. */
const RENEW_AT_FRACTION = 2 / 3;

/**
 * Keeps the proxy logged in: logs in at start, renews the token at ~2/3 of its TTL, logs in again
 * when renewal fails, the token can no longer be extended, or the server says it is no longer
 * valid, and retries with backoff while the server is unreachable. Every new token is written to
 * every sink. One operation runs at a time; every timer goes through the injected clock.
 */
export class AutoAuth {
  readonly #o: AutoAuthOptions;
  readonly #backoff: Backoff;
  #token: string | undefined;
  /** The TTL the last login gave; a renewal that returns less has hit the token's max TTL. */
  #loginTtlSeconds = 0;
  #timer: Cancel | undefined;
  #running: Promise<void> | undefined;
  #isStopped = false;
  /** The validity check in progress after a refusal, shared by the refusals that come meanwhile. */
  #check: { token: string; done: Promise<void> } | undefined;
  /** Until then the current token counts as valid (a check found it so a moment ago). */
  #validUntilMs = 0;
  readonly #firstToken: Promise<string>;
  #resolveFirst!: (token: string) => void;

  constructor(options: AutoAuthOptions) {
    this.#o = options;
    this.#backoff = new Backoff(options.random, options.minBackoffMs, options.maxBackoffMs);
    this.#firstToken = new Promise((resolve) => {
      this.#resolveFirst = resolve;
    });
  }

  /** The current token, undefined until the first login succeeds. */
  get token(): string | undefined {
    return this.#token;
  }

  /**
   * The token to forward a request with. Before the first login has succeeded, waits for it up to
   * `waitMs` (of the clock), so requests that arrive while the proxy starts are not refused for
   * lack of a token; undefined if it has not come by then.
   */
  async awaitToken(waitMs: number): Promise<string | undefined> {
    if (this.#token !== undefined || this.#isStopped) return this.#token;
    let cancel: Cancel | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      cancel = this.#o.clock.setTimeout(() => resolve(undefined), waitMs);
    });
    try {
      return await Promise.race([this.#firstToken, timeout]);
    } finally {
      cancel?.();
    }
  }

  /** Resolves with the first token once it is in every sink. */
  firstToken(): Promise<string> {
    return this.#firstToken;
  }

  /** Starts the first login (retried with backoff until it succeeds or `stop()`). */
  start(): void {
    this.#run(() => this.#login());
  }

  /**
   * A request made with `token` was refused (403). If it is still the current token and the server
   * no longer knows it (revoked, expired), log in again before returning, so the next request gets
   * the new token. A refusal for lack of policy leaves the token alone.
   */
  async reportRejected(token: string): Promise<void> {
    if (this.#running) await this.#running;
    if (this.#isStopped || token !== this.#token) return;
    // Many refusals at once (a client without the policy it needs) share one check, and a token
    // found valid is not checked again for a second: refusals must not become a lookup each.
    if (this.#check?.token === token) return this.#check.done;
    if (this.#o.clock.now() < this.#validUntilMs) return;
    const done = this.#run(async () => {
      if (token !== this.#token) return;
      if (await this.#isValid(token)) {
        this.#validUntilMs = this.#o.clock.now() + RECHECK_AFTER_MS;
        return;
      }
      this.#o.logger.warn('auto-auth token no longer valid; logging in again');
      await this.#login();
    }).finally(() => {
      if (this.#check?.done === done) this.#check = undefined;
    });
    this.#check = { token, done };
    return done;
  }

  /** Cancels pending timers; an operation in progress finishes but schedules nothing more. */
  stop(): void {
    this.#isStopped = true;
    this.#timer?.();
    this.#timer = undefined;
  }

  /** Runs one operation at a time; a failure is logged by the operation itself. */
  #run(op: () => Promise<void>): Promise<void> {
    const previous = this.#running ?? Promise.resolve();
    const current = previous.then(op).finally(() => {
      if (this.#running === current) this.#running = undefined;
    });
    this.#running = current;
    return current;
  }

  #schedule(ms: number, op: () => Promise<void>): void {
    this.#timer?.();
    if (this.#isStopped) return;
    this.#timer = this.#o.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.#run(op);
    }, ms);
  }

  async #login(): Promise<void> {
    if (this.#isStopped) return;
    let auth: SecretAuth;
    try {
      auth = await this.#o.method.authenticate(this.#o.client);
    } catch (err) {
      const waitMs = this.#backoff.next();
      this.#o.logger.error('auto-auth login failed; retrying', {
        method: this.#o.method.type,
        err: describe(err),
        waitMs,
      });
      this.#schedule(waitMs, () => this.#login());
      return;
    }
    this.#backoff.reset();
    this.#token = auth.client_token;
    this.#validUntilMs = 0;
    this.#loginTtlSeconds = auth.lease_duration;
    this.#o.logger.info('auto-auth: authenticated', { method: this.#o.method.type, ttlSeconds: auth.lease_duration });
    await this.#writeSinks(auth.client_token);
    this.#resolveFirst(auth.client_token);
    this.#scheduleRenewal(auth.lease_duration, auth.renewable);
  }

  async #writeSinks(token: string): Promise<void> {
    for (const sink of this.#o.sinks) {
      try {
        await sink.write(token);
        this.#o.logger.info('auto-auth: token written to sink', { path: sink.path });
      } catch (err) {
        this.#o.logger.error('auto-auth: cannot write sink', { path: sink.path, err: describe(err) });
      }
    }
  }

  /** A token without a TTL (root) never needs renewing; one that cannot be renewed is replaced. */
  #scheduleRenewal(ttlSeconds: number, isRenewable: boolean): void {
    if (ttlSeconds <= 0) return;
    const waitMs = Math.floor(ttlSeconds * 1000 * RENEW_AT_FRACTION);
    this.#schedule(waitMs, isRenewable ? () => this.#renew() : () => this.#login());
  }

  async #renew(): Promise<void> {
    const token = this.#token;
    if (this.#isStopped || token === undefined) return;
    let ttlSeconds: number;
    try {
      const renewed = await this.#o.client.withToken(token).token.renewSelf();
      ttlSeconds = renewed.auth?.lease_duration ?? 0;
    } catch (err) {
      this.#o.logger.warn('auto-auth: renewal failed; logging in again', { err: describe(err) });
      await this.#login();
      return;
    }
    this.#o.logger.debug('auto-auth: token renewed', { ttlSeconds });
    // Capped by its max TTL: renewing again would only shrink it further, so log in before it ends.
    const isCapped = ttlSeconds < this.#loginTtlSeconds;
    this.#scheduleRenewal(ttlSeconds, !isCapped);
  }

  async #isValid(token: string): Promise<boolean> {
    try {
      await this.#o.client.withToken(token).token.lookupSelf();
      return true;
    } catch (err) {
      // Only the server's own "no such token" counts; an unreachable server says nothing about it.
      return !(err instanceof ApiError && err.status === 403);
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
