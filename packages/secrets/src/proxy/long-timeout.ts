import type { Cancel, Clock } from '@ward/base';

/** Node fires a timer set for longer than this (about 24.8 days) after 1 ms instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `clock.setTimeout` for any delay: a token or lease may live 32 days or more, so a long wait is
 * taken in steps the timer can hold.
 */
export function setLongTimeout(clock: Clock, fn: () => void, ms: number): Cancel {
  const dueMs = clock.now() + ms;
  let cancel: Cancel;
  const arm = (): void => {
    const remainingMs = dueMs - clock.now();
    cancel = remainingMs > MAX_TIMER_MS ? clock.setTimeout(arm, MAX_TIMER_MS) : clock.setTimeout(fn, remainingMs);
  };
  arm();
  return () => cancel();
}
