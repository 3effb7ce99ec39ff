import { readFile } from 'node:fs/promises';
import { parse } from '@cdktf/hcl2json';
import { configKeyLine, isLogFormat, LOG_FORMATS, LOG_LEVELS, type LogLevel } from '@ward/base';
import { closest, distance } from 'fastest-levenshtein';
import { SYSTEM_DEFAULT_LEASE_TTL_SECONDS, SYSTEM_MAX_LEASE_TTL_SECONDS } from '../core/router/mounts.js';
import { formatDuration, parseDurationSeconds } from '../framework/index.js';
import { DEFAULT_JSON_LIMITS, type JsonLimits, MAX_JSON_DEPTH_SETTING } from '../http/json-body.js';
import type { ListenerTlsOptions } from '../http/listener.js';
import { InvalidRequestError } from '../logical/errors.js';
import { parseStorageBlock, type StorageConfig, storageType as storageTypeOf } from '../storage/index.js';
import type { TelemetryConfig } from './metrics.js';
import { parseSeals, type SealsConfig } from './seal-config.js';

export type { StorageConfig };

export interface ListenerConfig {
  address: string;
  tlsDisable: boolean;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Bytes; 0 = the default 32 MiB; negative = unlimited. */
  maxRequestSize: number;
  /** `require_request_header`: refuse (412) requests without `X-Vault-Request: true`. */
  requireRequestHeader?: boolean;
  /** `max_json_depth`, `max_json_string_value_length`, `max_json_object_entry_count`, `max_json_array_element_count`. */
  jsonLimits?: JsonLimits;
  /** `telemetry { unauthenticated_metrics_access = true }`: `sys/metrics` needs no token on this listener. */
  unauthenticatedMetricsAccess?: boolean;
}

/** The server configuration file, in the established HCL layout. */
export interface ServerConfig {
  storage: StorageConfig;
  listeners: ListenerConfig[];
  apiAddr?: string;
  /** `cluster_addr`: what the active server advertises for server-to-server traffic (HA). */
  clusterAddr?: string;
  logLevel: LogLevel;
  logJson: boolean;
  /** `kms_library "pkcs11" { name, library }` stanzas: lower-case name → library path. */
  kmsLibraries: ReadonlyMap<string, string>;
  /** `log_requests = true`: one `info` line per request (otherwise they are `debug` lines). */
  logRequests?: boolean;
  /** `disable_performance_standby = true`: an HA standby serves nothing itself (reads are redirected too). */
  disablePerformanceStandby?: boolean;
  /** `seal "<type>" { … }` stanzas (auto-unseal, seal migration); none: Shamir. */
  seals?: SealsConfig;
  /** `telemetry { disable_hostname, prometheus_retention_time }`; absent = hostname label, no Prometheus output. */
  telemetry?: TelemetryConfig;
}

/** One block of a parsed configuration document. */
export type Block = Record<string, unknown>;

/** Reads and validates an HCL (or JSON) configuration file. */
export async function loadConfigFile(file: string): Promise<ServerConfig> {
  const { doc, text } = await readConfigFile(file);
  return parseConfig(doc, { file, text });
}

/**
 * Reads an HCL (or JSON) file as a document (labelled blocks become maps of arrays, blocks arrays),
 * with the text it was parsed from, for the line numbers of errors.
 */
export async function readConfigFile(file: string): Promise<{ doc: Block; text: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InvalidRequestError(`error loading configuration from ${file}: ${(err as Error).message}`);
  }
  try {
    const doc = text.trimStart().startsWith('{') ? JSON.parse(text) : ((await parse(file, text)) as Block);
    return { doc, text };
  } catch (err) {
    throw new InvalidRequestError(`error loading configuration from ${file}: ${(err as Error).message}`);
  }
}

/** The keys of a `listener "tcp"` block. */
export const LISTENER_KEYS: readonly string[] = [
  'address',
  'tls_disable',
  'tls_cert_file',
  'tls_key_file',
  'max_request_size',
  'require_request_header',
  'max_json_depth',
  'max_json_string_value_length',
  'max_json_object_entry_count',
  'max_json_array_element_count',
];

/**
 * Keys each part of the file may hold. Anything else is refused with its name and line: a typo
 * such as `tls_cert_fil` must not silently start a plain-HTTP listener.
 */
const KNOWN_KEYS = {
  top: [
    'storage',
    'backend',
    'listener',
    'api_addr',
    'cluster_addr',
    'log_level',
    'log_format',
    'ui',
    'telemetry',
    'disable_mlock',
    'default_lease_ttl',
    'max_lease_ttl',
    'kms_library',
    'log_requests',
    'disable_performance_standby',
    'seal',
  ],
  kms_library: ['name', 'library'],
  // `telemetry { unauthenticated_metrics_access }` is the server's own (the proxy has no metrics).
  listener: [...LISTENER_KEYS, 'telemetry'],
  listenerTelemetry: ['unauthenticated_metrics_access'],
  telemetry: ['disable_hostname', 'prometheus_retention_time'],
};

/** Where the document came from, so an error can name the file and line. */
export interface ConfigSource {
  file: string;
  text: string;
}

/** Validates a parsed configuration document (HCL as JSON: labelled blocks are maps of arrays). */
export function parseConfig(doc: Block, source?: ConfigSource): ServerConfig {
  const refuseUnknown = unknownKeyCheck(source);
  refuseUnknown(doc, KNOWN_KEYS.top, 'at the top level');
  // `backend` is the legacy name of `storage` (hvac's and node-vault's example configs use it).
  const storageBlocks = [...labelled(doc.storage, 'storage'), ...labelled(doc.backend, 'backend')];
  if (storageBlocks.length !== 1) throw new InvalidRequestError('exactly one storage (or backend) block is required');
  const [storageType, storageBody] = storageBlocks[0] as [string, Block];
  refuseUnknown(storageBody, storageTypeOf(storageType).keys, `in storage "${storageType}"`);
  const listeners = labelled(doc.listener, 'listener').map(([type, body]) => {
    if (type !== 'tcp') throw new InvalidRequestError(`unknown listener type "${type}"; use "tcp"`);
    refuseUnknown(body, KNOWN_KEYS.listener, 'in listener "tcp"');
    for (const t of blocks(body.telemetry, 'telemetry')) {
      refuseUnknown(t, KNOWN_KEYS.listenerTelemetry, 'in listener "tcp" telemetry');
    }
    return listenerConfig(body);
  });
  if (listeners.length === 0) throw new InvalidRequestError('at least one listener block is required');
  const telemetryBlocks = blocks(doc.telemetry, 'telemetry');
  for (const body of telemetryBlocks) refuseUnknown(body, KNOWN_KEYS.telemetry, 'in telemetry');
  if (doc.ui !== undefined && typeof doc.ui !== 'boolean') throw new InvalidRequestError('ui must be true or false');
  checkSystemLeaseTtls(doc);
  return {
    storage: parseStorageBlock(storageType, storageBody),
    listeners,
    apiAddr: typeof doc.api_addr === 'string' ? doc.api_addr : undefined,
    clusterAddr: typeof doc.cluster_addr === 'string' ? doc.cluster_addr : undefined,
    ...logSettings(doc, source),
    kmsLibraries: kmsLibraries(doc, refuseUnknown),
    telemetry: telemetryConfig(telemetryBlocks),
    logRequests: isTrue(doc.log_requests),
    disablePerformanceStandby: isTrue(doc.disable_performance_standby),
    seals: parseSeals(labelled(doc.seal, 'seal'), refuseUnknown),
  };
}

/** `kms_library "pkcs11" { name = "softhsm" library = "/usr/lib/softhsm/libsofthsm2.so" }`; names unique ignoring case. */
function kmsLibraries(
  doc: Block,
  refuseUnknown: (block: Block, known: readonly string[], where: string) => void,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [type, body] of labelled(doc.kms_library, 'kms_library')) {
    if (type !== 'pkcs11') throw new InvalidRequestError(`unknown kms_library type "${type}"; use "pkcs11"`);
    refuseUnknown(body, KNOWN_KEYS.kms_library, 'in kms_library "pkcs11"');
    if (typeof body.name !== 'string' || body.name === '')
      throw new InvalidRequestError('kms_library "pkcs11" needs a name');
    if (typeof body.library !== 'string' || body.library === '')
      throw new InvalidRequestError(`kms_library "${body.name}" needs a library path`);
    const name = body.name.toLowerCase();
    if (out.has(name)) throw new InvalidRequestError(`kms_library "${body.name}" is defined twice`);
    out.set(name, body.library);
  }
  return out;
}

/**
 * `default_lease_ttl` and `max_lease_ttl` (established top-level keys; hvac's test configs set
 * both to 768h): Ward's system TTLs are fixed, so restating them is accepted and any other
 * value is refused rather than silently ignored.
 */
function checkSystemLeaseTtls(doc: Block): void {
  const fixed = { default_lease_ttl: SYSTEM_DEFAULT_LEASE_TTL_SECONDS, max_lease_ttl: SYSTEM_MAX_LEASE_TTL_SECONDS };
  for (const [key, seconds] of Object.entries(fixed)) {
    if (doc[key] === undefined) continue;
    if (parseDurationSeconds(doc[key], key) !== seconds) {
      throw new InvalidRequestError(`${key}: only ${formatDuration(seconds)} (the system value) is supported`);
    }
  }
}

/**
 * `log_level` (any case; default info) and `log_format` (`standard`, the default, or `json`);
 * any other value is refused naming the key and its line, as the server and the proxy share them.
 */
export function logSettings(doc: Block, source?: ConfigSource): { logLevel: LogLevel; logJson: boolean } {
  const logLevel = String(doc.log_level ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new InvalidRequestError(
      `${keyLocation(source, 'log_level')}log_level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(doc.log_level)}`,
    );
  }
  const logFormat = doc.log_format ?? 'standard';
  if (!isLogFormat(logFormat)) {
    throw new InvalidRequestError(
      `${keyLocation(source, 'log_format')}log_format must be ${LOG_FORMATS.map((f) => `"${f}"`).join(' or ')}, got ${JSON.stringify(logFormat)}`,
    );
  }
  return { logLevel: logLevel as LogLevel, logJson: logFormat === 'json' };
}

/** `file:line: ` where `key` is written, for an error about it; empty when there is no file. */
export function keyLocation(source: ConfigSource | undefined, key: string): string {
  if (!source) return '';
  const line = configKeyLine(source.text, key);
  return `${source.file}${line ? `:${line}` : ''}: `;
}

/**
 * A check that refuses any key of a block but the known ones, naming the file and line of the
 * first unknown key and the nearest known one.
 */
export function unknownKeyCheck(source?: ConfigSource) {
  return (block: Block, known: readonly string[], where: string): void => {
    for (const key of Object.keys(block)) {
      if (known.includes(key)) continue;
      throw new InvalidRequestError(`${keyLocation(source, key)}unknown key "${key}" ${where}${nearest(key, known)}`);
    }
  };
}

/** The settings of a `listener "tcp"` block, validated. */
export function listenerConfig(body: Block): ListenerConfig {
  const tlsDisable = isTrue(body.tls_disable);
  const config: ListenerConfig = {
    address: typeof body.address === 'string' ? body.address : '127.0.0.1:8200',
    tlsDisable,
    tlsCertFile: body.tls_cert_file as string | undefined,
    tlsKeyFile: body.tls_key_file as string | undefined,
    maxRequestSize: Number(body.max_request_size ?? 0),
    requireRequestHeader: isTrue(body.require_request_header),
    jsonLimits: jsonLimits(body),
    unauthenticatedMetricsAccess: blocks(body.telemetry, 'telemetry').some((t) =>
      isTrue(t.unauthenticated_metrics_access),
    ),
  };
  if (!Number.isInteger(config.maxRequestSize)) throw new InvalidRequestError('max_request_size must be an integer');
  if (!tlsDisable && (!config.tlsCertFile || !config.tlsKeyFile)) {
    throw new InvalidRequestError(
      `listener ${config.address}: tls_cert_file and tls_key_file are required unless tls_disable = true`,
    );
  }
  return config;
}

/** A listener's JSON limits: positive integers, the established defaults where absent. */
function jsonLimits(body: Block): JsonLimits {
  const limit = (key: string, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
    const raw = body[key];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      throw new InvalidRequestError(`${key} must be an integer from 1 to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  const d = DEFAULT_JSON_LIMITS;
  return {
    maxDepth: limit('max_json_depth', d.maxDepth, MAX_JSON_DEPTH_SETTING),
    maxStringValueLength: limit('max_json_string_value_length', d.maxStringValueLength),
    maxObjectEntryCount: limit('max_json_object_entry_count', d.maxObjectEntryCount),
    maxArrayElementCount: limit('max_json_array_element_count', d.maxArrayElementCount),
  };
}

/** The certificate and key a listener block names; undefined for plain HTTP (`tls_disable`). */
export async function readListenerTls(l: ListenerConfig): Promise<ListenerTlsOptions | undefined> {
  if (l.tlsDisable || !l.tlsCertFile || !l.tlsKeyFile) return undefined;
  return { cert: await readFile(l.tlsCertFile), key: await readFile(l.tlsKeyFile) };
}

/** HCL booleans may be written `true`, `"true"` or `1`. */
export function isTrue(value: unknown): boolean {
  return value === true || value === 'true' || value === 1;
}

/** `storage "sqlite" { … }` parses to `{ sqlite: [{ … }] }`; flatten that to `[type, body]` pairs. */
export function labelled(value: unknown, what: string): Array<[string, Block]> {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null) throw new InvalidRequestError(`invalid ${what} block`);
  const out: Array<[string, Block]> = [];
  for (const [label, bodies] of Object.entries(value)) {
    for (const body of Array.isArray(bodies) ? bodies : [bodies]) out.push([label, body as Block]);
  }
  return out;
}

/** An unlabelled block (`telemetry { … }`, `vault { … }`) parses to an array of bodies. */
export function blocks(value: unknown, what: string): Block[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const body of list) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InvalidRequestError(`invalid ${what} block`);
  }
  return list as Block[];
}

/** `; did you mean "x"?` for a key one or two edits away from a known one. */
function nearest(key: string, known: readonly string[]): string {
  const best = closest(key, [...known]);
  return best && distance(key, best) <= 2 ? `; did you mean "${best}"?` : '';
}

/** The `telemetry` block (at most one): hostname label and how long Prometheus output is kept. */
function telemetryConfig(bodies: Block[]): TelemetryConfig {
  if (bodies.length > 1) throw new InvalidRequestError('at most one telemetry block is allowed');
  const body = bodies[0] ?? {};
  const retention = body.prometheus_retention_time;
  return {
    disableHostname: isTrue(body.disable_hostname),
    prometheusRetentionSeconds:
      retention === undefined ? 0 : parseDurationSeconds(retention, 'prometheus_retention_time'),
  };
}
