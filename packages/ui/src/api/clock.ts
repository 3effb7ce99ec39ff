/** Time for the session's expiry and renewal: the browser's, passed in so nothing reads it at module scope. */
export interface BrowserClock {
  now(): number;
  /** Runs `fn` after `ms`; the returned function cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

/** Browsers run a timer longer than 2^31-1 ms at once: longer waits are taken a day at a time. */
const DAY_MS = 86_400_000;

export const browserClock: BrowserClock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    let id = 0;
    const arm = (left: number) => {
      const wait = Math.min(Math.max(left, 0), DAY_MS);
      id = window.setTimeout(() => (left > wait ? arm(left - wait) : fn()), wait);
    };
    arm(ms);
    return () => window.clearTimeout(id);
  },
};
