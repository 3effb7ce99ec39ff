import type { LogLevel } from '@ward/base';
import type { LogHub } from './log-hub.js';

/** Feeds this agent's log lines at `level` (and in `json` or text form) to `onLine` until `signal` aborts. */
export function followLogs(
  hub: LogHub,
  o: { level: LogLevel; json: boolean; signal: AbortSignal },
  onLine: (line: string) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = hub.subscribe({ level: o.level, json: o.json, sink: { write: onLine } });
    const done = () => {
      unsubscribe();
      resolve();
    };
    if (o.signal.aborted) return done();
    o.signal.addEventListener('abort', done, { once: true });
  });
}
