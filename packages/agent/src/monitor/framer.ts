import type { Cancel, Clock } from '@ward/base';

export interface FramerOptions {
  clock: Clock;
  /** Receives each encoded frame (or, in plain mode, the raw bytes). */
  write(bytes: string): void;
  isPlain: boolean;
  heartbeatMs?: number;
  flushMs?: number;
  maxFrameBytes?: number;
  /** Messages held before dropping: a slow reader must not grow the agent's memory. */
  bufferedLines?: number;
}

/**
 * Turns log lines into the stream the established client reads: JSON frames
 * `{"Data":"<base64>","FileEvent":"log"}` written back-to-back, at most 1024 data bytes
 * each, flushed every 200 ms, with an empty `{}` heartbeat every second. Plain mode
 * writes the raw lines and no heartbeats.
 */
export class LogFramer {
  #pending: string[] = [];
  #dropped = 0;
  readonly #cancels: Cancel[] = [];
  #isClosed = false;

  constructor(private readonly o: FramerOptions) {}

  start(): void {
    this.#every(this.o.flushMs ?? 200, () => this.flush());
    if (!this.o.isPlain) this.#every(this.o.heartbeatMs ?? 1000, () => this.o.write('{}'));
    this.#every(3000, () => this.#reportDrops());
  }

  #every(ms: number, fn: () => void): void {
    const tick = () => {
      if (this.#isClosed) return;
      fn();
      this.#cancels.push(this.o.clock.setTimeout(tick, ms));
    };
    this.#cancels.push(this.o.clock.setTimeout(tick, ms));
  }

  /** Queues one log line (already newline-terminated). */
  push(line: string): void {
    if (this.#pending.length >= (this.o.bufferedLines ?? 512)) {
      this.#dropped++;
      return;
    }
    this.#pending.push(line);
  }

  flush(): void {
    if (this.#pending.length === 0) return;
    const bytes = Buffer.from(this.#pending.join(''), 'utf8');
    this.#pending = [];
    if (this.o.isPlain) {
      this.o.write(bytes.toString('utf8'));
      return;
    }
    const max = this.o.maxFrameBytes ?? 1024;
    for (let at = 0; at < bytes.length; at += max) {
      this.o.write(JSON.stringify({ Data: bytes.subarray(at, at + max).toString('base64'), FileEvent: 'log' }));
    }
  }

  #reportDrops(): void {
    if (this.#dropped === 0) return;
    const n = this.#dropped;
    this.#dropped = 0;
    this.#pending.push(
      `${new Date(this.o.clock.now()).toISOString()} [WARN] Monitor dropped ${n} logs during monitor request\n`,
    );
  }

  close(): void {
    this.#isClosed = true;
    for (const cancel of this.#cancels) cancel();
  }
}

/** Splits back-to-back JSON frames (as a client reads them) into objects. */
export function splitFrames(text: string): Array<{ Data?: string; FileEvent?: string; Offset?: number }> {
  const out: Array<{ Data?: string; FileEvent?: string; Offset?: number }> = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}
