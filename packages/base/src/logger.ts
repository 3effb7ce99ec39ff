import { type Logger as PinoLogger, pino } from 'pino';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

/** Structured logger. Callers never pass secrets; keys that look secret are redacted anyway. */
export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
  /**
   * Whether lines at `level` are written; lets a caller skip building fields nobody reads (the
   * request log, once per request). A logger without it writes every level.
   */
  isEnabled?(level: LogLevel): boolean;
}

export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

/**
 * How every binary writes its log (`-log-format` / `log_format`): `standard`, human-readable
 * lines, or `json`, one JSON object per line. The established tools spell them so.
 */
export type LogFormat = 'standard' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['standard', 'json'];

/** Whether `value` names a log format (exactly, as the established server compares it). */
export function isLogFormat(value: unknown): value is LogFormat {
  return LOG_FORMATS.includes(value as LogFormat);
}

/** Field names whose values never reach a log, whatever a caller passes by mistake. */
const SECRET_KEY = /token|password|secret|^key$|_key$|pin|credential|authorization/i;

export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEY.test(k) && v !== undefined && v !== null && v !== '') out[k] = '[redacted]';
    else if (v instanceof Error) out[k] = v.stack ?? v.message;
    else out[k] = v;
  }
  return out;
}

export interface LogSink {
  write(line: string): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  json?: boolean;
  sink?: LogSink;
  now?: () => number;
  /** Where listeners (`sys/monitor`) tap every line, at their own level whatever `level` is. */
  tap?: LogTap;
}

/**
 * A logger over pino writing one line per entry to a sink (stderr by default): pino's JSON with
 * the established field names (`@timestamp`, `@level`, `@message`), or, unless `json`, the
 * human-readable `time [LEVEL] msg: k=v` rendered from that same JSON line.
 */
export function createLogger(options: LoggerOptions = {}, base: LogFields = {}): Logger {
  const sink = options.sink ?? process.stderr;
  const now = options.now ?? Date.now;
  const tap = options.tap;
  const root = pino(
    {
      level: options.level ?? 'info',
      base: null,
      messageKey: '@message',
      timestamp: () => `,"@timestamp":"${new Date(now()).toISOString()}"`,
      formatters: { level: (label) => ({ '@level': label }) },
    },
    { write: (line: string) => sink.write(options.json ? line : humanLine(line)) },
  );
  const bound = redact(base);
  return wrap(Object.keys(base).length > 0 ? root.child(bound) : root, tap, bound, now);
}

function wrap(target: PinoLogger, tap: LogTap | undefined, bound: LogFields, now: () => number): Logger {
  const at =
    (level: LogLevel) =>
    (msg: string, fields?: LogFields): void => {
      const isWritten = target.isLevelEnabled(level);
      // One comparison when nobody listens: the tap's threshold is then above every level.
      const isTapped = tap !== undefined && LEVEL_RANK[level] >= tap.threshold;
      if (!isWritten && !isTapped) return;
      const clean = fields ? redact(fields) : undefined;
      if (isTapped) tap.publish(level, { ...bound, ...clean }, msg, now());
      if (!isWritten) return;
      if (clean) target[level](clean, msg);
      else target[level](msg);
    };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => {
      const more = redact(fields);
      return wrap(target.child(more), tap, { ...bound, ...more }, now);
    },
    isEnabled: (level) => target.isLevelEnabled(level) || (tap !== undefined && LEVEL_RANK[level] >= tap.threshold),
  };
}

/** `2024-01-01T00:00:00.000Z [INFO] listening: url=http://…` from one pino JSON line. */
function humanLine(line: string): string {
  const { '@timestamp': time, '@level': level, '@message': msg, ...fields } = JSON.parse(line) as LogFields;
  return standardLine(String(time), String(level), String(msg), fields);
}

function standardLine(time: string, level: string, msg: string, fields: LogFields): string {
  const rest = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${time} [${level.toUpperCase()}] ${msg}${rest ? `: ${rest}` : ''}\n`;
}

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };

/** Receives each tapped line, already rendered in the format it asked for (newline-terminated). */
export type LogListener = (line: string) => void;

/**
 * Lines of a logger handed to listeners as they are logged (`sys/monitor`): each listener names
 * its own level and format, independent of what the logger writes to its sink. With no listener
 * the logger pays one comparison per call.
 */
export interface LogTap {
  /** The lowest rank any listener wants; above every level when there is none. */
  readonly threshold: number;
  /** Called by the logger; renders the line once per format in use. */
  publish(level: LogLevel, fields: LogFields, msg: string, timeMs: number): void;
  /** Starts handing `listener` every line at `level` or above; the result stops it. */
  subscribe(level: LogLevel, format: LogFormat, listener: LogListener): () => void;
}

interface Subscription {
  rank: number;
  format: LogFormat;
  listener: LogListener;
}

export function createLogTap(): LogTap {
  const subscriptions = new Set<Subscription>();
  let threshold = Number.POSITIVE_INFINITY;
  const recompute = () => {
    threshold = Number.POSITIVE_INFINITY;
    for (const s of subscriptions) threshold = Math.min(threshold, s.rank);
  };
  return {
    get threshold() {
      return threshold;
    },
    publish(level, fields, msg, timeMs) {
      const rank = LEVEL_RANK[level];
      const time = new Date(timeMs).toISOString();
      let json: string | undefined;
      let standard: string | undefined;
      for (const s of subscriptions) {
        if (rank < s.rank) continue;
        if (s.format === 'json') {
          json ??= `${JSON.stringify({ '@level': level, '@message': msg, '@timestamp': time, ...fields })}\n`;
          s.listener(json);
        } else {
          standard ??= standardLine(time, level, msg, fields);
          s.listener(standard);
        }
      }
    },
    subscribe(level, format, listener) {
      const s: Subscription = { rank: LEVEL_RANK[level], format, listener };
      subscriptions.add(s);
      recompute();
      return () => {
        subscriptions.delete(s);
        recompute();
      };
    },
  };
}

/** A logger that drops everything; for tests that do not read logs. */
export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
  isEnabled: () => false,
};
