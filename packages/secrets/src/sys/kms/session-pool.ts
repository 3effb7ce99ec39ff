/**
 * At most `size` sessions, opened on demand and reused; a caller beyond that waits for one to
 * come back. `max_parallel` bounds how many requests reach the HSM at once.
 */
export class SessionPool<S> {
  readonly #idle: S[] = [];
  readonly #waiting: Array<(session: S) => void> = [];
  #open = 0;

  constructor(
    private readonly size: number,
    private readonly openOne: () => S,
    private readonly closeOne: (session: S) => void,
  ) {}

  /** Runs `work` with a session of its own, returning the session afterwards even when `work` throws. */
  async use<T>(work: (session: S) => Promise<T>): Promise<T> {
    const session = await this.#acquire();
    try {
      return await work(session);
    } finally {
      this.#release(session);
    }
  }

  /** Closes the idle sessions; later calls open new ones. */
  drain(): void {
    for (const session of this.#idle.splice(0)) {
      this.#open--;
      this.closeOne(session);
    }
  }

  #acquire(): Promise<S> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#open < this.size) {
      const session = this.openOne();
      this.#open++;
      return Promise.resolve(session);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(session: S): void {
    const next = this.#waiting.shift();
    if (next) next(session);
    else this.#idle.push(session);
  }
}
