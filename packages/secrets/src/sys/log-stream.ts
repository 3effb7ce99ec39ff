import type { LogFormat, LogLevel } from '@ward/base';
import type { LogSource } from '../core/system-core.js';

/** Lines waiting for a slow reader beyond this are dropped, as established: logging never waits for a client. */
const MAX_QUEUED_LINES = 1024;

/**
 * The server's log lines from now on, as bytes, until the reader stops (the client went away):
 * `return()` unsubscribes at once, even while a read waits for the next line.
 */
export function logStream(source: LogSource, level: LogLevel, format: LogFormat): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const queue: string[] = [];
      let waiting: ((r: IteratorResult<Uint8Array>) => void) | undefined;
      let isDone = false;
      const unsubscribe = source.subscribe(level, format, (line) => {
        if (waiting) {
          const resolve = waiting;
          waiting = undefined;
          resolve({ value: Buffer.from(line), done: false });
        } else if (queue.length < MAX_QUEUED_LINES) queue.push(line);
      });
      const finish = (): Promise<IteratorResult<Uint8Array>> => {
        if (!isDone) {
          isDone = true;
          unsubscribe();
          waiting?.({ value: undefined, done: true });
          waiting = undefined;
        }
        return Promise.resolve({ value: undefined, done: true });
      };
      return {
        next() {
          if (isDone) return Promise.resolve({ value: undefined, done: true });
          const line = queue.shift();
          if (line !== undefined) return Promise.resolve({ value: Buffer.from(line), done: false });
          return new Promise((resolve) => {
            waiting = resolve;
          });
        },
        return: finish,
        throw: finish,
      };
    },
  };
}
