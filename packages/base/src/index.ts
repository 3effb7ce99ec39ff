export * from './cli/index.js';
export { type Cancel, type Clock, FakeClock, systemClock } from './clock.js';
export { CodedError, isCodedError } from './coded-error.js';
export { configKeyLine } from './config-line.js';
export * from './duration.js';
export { formatDuration, formatDurationMs, formatDurationSeconds, formatDurationShort } from './duration-format.js';
export { parseGoBool } from './go-bool.js';
export * from './go-flags.js';
export { type HclBody, type HclDocument, HclSyntaxError, parseHcl } from './hcl1/index.js';
export { BodyAlreadyReadError, type BodyErrors, readBody, streamBody } from './http-body.js';
export {
  createLogger,
  createLogTap,
  isLogFormat,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFields,
  type LogFormat,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogListener,
  type LogSink,
  type LogTap,
  redact,
  silentLogger,
} from './logger.js';
export {
  createCryptoRandom,
  cryptoRandom,
  type Random,
  randomBase62,
  randomUuid,
  SeededRandom,
  uuidSource,
} from './random.js';
export { type RouteEntry, type RouteMatch, Router, type RouterOptions } from './router/router.js';
export {
  compileSegmentPattern,
  InvalidPatternError,
  type PatternSegment,
  type SegmentPattern,
} from './router/segment-pattern.js';
