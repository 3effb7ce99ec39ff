/** `ward server`: the configuration file, and the composition root that builds the server from it. @module */
import type { LogLevel } from '@ward/base';
import { formatDurationSeconds } from '@ward/base';
import { ESTABLISHED_SYSTEM_TTLS, type SystemTtls } from '../core/router/system-ttls.js';
import { parseDurationSeconds } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { parseStorageBlock, type StorageConfig, storageType as storageTypeOf } from '../storage/index.js';
import { type Block, blocks, labelled, logSettings, nearest, parseBool, readConfigFile } from './config-document.js';
import { LISTENER_NO_EFFECT, type NoEffectKeys, TELEMETRY_NO_EFFECT, TOP_LEVEL_NO_EFFECT } from './config-keys.js';
import { ConfigProblems, type ConfigSource } from './config-problems.js';
import { type ListenerConfig, SERVER_LISTENER_KEYS, serverListenerConfig } from './listener-config.js';
import type { TelemetryConfig } from './metrics.js';
import { parseSeals, type SealsConfig } from './seal-config.js';
import { parseWorkers } from './workers-setting.js';

export type { StorageConfig };
export {
  type Block,
  blocks,
  keyLocation,
  labelled,
  logSettings,
  parseBool,
  readConfigFile,
  unknownKeyCheck,
} from './config-document.js';
export type { ConfigSource } from './config-problems.js';
export { LISTENER_KEYS, type ListenerConfig, listenerConfig, readListenerTls } from './listener-config.js';

/** The server configuration file, in the established HCL layout. */
export interface ServerConfig {
  storage: StorageConfig;
  listeners: ListenerConfig[];
  apiAddr?: string;
  /** `cluster_addr`: what the active server advertises for server-to-server traffic (HA). */
  clusterAddr?: string;
  /** `cluster_name`: the name `sys/health` reports, given to the cluster when it is initialised. */
  clusterName?: string;
  logLevel: LogLevel;
  logJson: boolean;
  /** `log_file`: log lines also go to this file (appended). */
  logFile?: string;
  /** `pid_file`: the process id is written here at start and the file removed at shutdown. */
  pidFile?: string;
  /** `kms_library "pkcs11" { name, library }` stanzas: lower-case name → library path. */
  kmsLibraries: ReadonlyMap<string, string>;
  /** `log_requests = true`: one `info` line per request (otherwise they are `debug` lines). */
  logRequests?: boolean;
  /** `disable_performance_standby = true`: an HA standby serves nothing itself (reads are redirected too). */
  disablePerformanceStandby?: boolean;
  /** `raw_storage_endpoint = true`: `sys/raw/*` reads and writes the decrypted storage (sudo only). */
  rawStorageEndpoint?: boolean;
  /** `introspection_endpoint = true`: `sys/internal/inspect/router/:tag` shows what the router holds (sudo only). */
  introspectionEndpoint?: boolean;
  /** `default_lease_ttl` and `max_lease_ttl`; absent = the established 768h each. */
  systemTtls?: SystemTtls;
  /** `seal "<type>" { … }` stanzas (auto-unseal, seal migration); none: Shamir. */
  seals?: SealsConfig;
  /** `telemetry { disable_hostname, prometheus_retention_time }`; absent = hostname label, no Prometheus output. */
  telemetry?: TelemetryConfig;
  /** `ui = true`: the web UI at `/ui/` (and `/` redirects there); absent or false: neither is served. */
  ui?: boolean;
  /** `workers`: server processes sharing the listeners and the SQLite store (1 to 64); absent = 1. */
  workers?: number;
  /** What the file holds that Ward does not act on, `file:line: …` each: logged at startup as warnings. */
  warnings?: string[];
}

/** Top-level keys Ward acts on; those it accepts without acting on are in config-keys.ts. */
const TOP_LEVEL_KEYS = [
  'ui',
  'storage',
  'backend',
  'listener',
  'seal',
  'api_addr',
  'cluster_addr',
  'cluster_name',
  'log_level',
  'log_format',
  'log_file',
  'log_requests',
  'pid_file',
  'telemetry',
  'default_lease_ttl',
  'max_lease_ttl',
  'kms_library',
  'disable_performance_standby',
  'raw_storage_endpoint',
  'introspection_endpoint',
  'workers',
];
const TELEMETRY_KEYS = ['disable_hostname', 'prometheus_retention_time'];
const LISTENER_TELEMETRY_KEYS = ['unauthenticated_metrics_access'];
const KMS_LIBRARY_KEYS = ['name', 'library'];
const NONE: NoEffectKeys = new Map();

/** Reads and validates an HCL1 (or JSON) configuration file; every problem in it is reported at once. */
export async function loadConfigFile(file: string): Promise<ServerConfig> {
  const { doc, source } = await readConfigFile(file);
  return parseConfig(doc, source);
}

/**
 * Validates a parsed configuration document. Every problem of the file is collected, and one
 * `ConfigFileError` lists them all, in line order, each with its line; keys Ward accepts without
 * acting on them become `warnings`.
 */
export function parseConfig(doc: Block, source?: ConfigSource): ServerConfig {
  const p = new ConfigProblems(source);
  checkKeys(p, doc, TOP_LEVEL_KEYS, TOP_LEVEL_NO_EFFECT, 'at the top level');
  const storage = storageSection(p, doc);
  const listenerBlocks = p.attempt(p.lineOf(doc, 'listener'), () => labelled(doc.listener, 'listener')) ?? [];
  if (doc.listener === undefined) p.error(undefined, 'at least one listener block is required');
  const listeners = listenerBlocks.flatMap(([type, body]) => listenerSection(p, type, body) ?? []);
  const telemetryBlocks = p.attempt(p.lineOf(doc, 'telemetry'), () => blocks(doc.telemetry, 'telemetry')) ?? [];
  for (const body of telemetryBlocks) checkKeys(p, body, TELEMETRY_KEYS, TELEMETRY_NO_EFFECT, 'in telemetry');
  const at = (key: string) => p.lineOf(doc, key);
  const config = {
    storage,
    listeners,
    apiAddr: p.attempt(at('api_addr'), () => optionalString(doc.api_addr, 'api_addr')),
    clusterAddr: p.attempt(at('cluster_addr'), () => optionalString(doc.cluster_addr, 'cluster_addr')),
    clusterName: p.attempt(at('cluster_name'), () => optionalString(doc.cluster_name, 'cluster_name')),
    ...logSection(p, doc),
    logFile: p.attempt(at('log_file'), () => logFile(doc.log_file)),
    pidFile: p.attempt(at('pid_file'), () => optionalString(doc.pid_file, 'pid_file')),
    kmsLibraries: kmsLibraries(p, doc),
    telemetry: p.attempt(at('telemetry'), () => telemetryConfig(telemetryBlocks)),
    logRequests: p.attempt(at('log_requests'), () => parseBool(doc.log_requests, 'log_requests')),
    disablePerformanceStandby: p.attempt(at('disable_performance_standby'), () =>
      parseBool(doc.disable_performance_standby, 'disable_performance_standby'),
    ),
    rawStorageEndpoint: p.attempt(at('raw_storage_endpoint'), () =>
      parseBool(doc.raw_storage_endpoint, 'raw_storage_endpoint'),
    ),
    introspectionEndpoint: p.attempt(at('introspection_endpoint'), () =>
      parseBool(doc.introspection_endpoint, 'introspection_endpoint'),
    ),
    systemTtls: p.attempt(at('default_lease_ttl') ?? at('max_lease_ttl'), () => systemTtls(doc)),
    seals: sealSection(p, doc),
    ui: p.attempt(at('ui'), () => parseBool(doc.ui, 'ui')),
    workers: p.attempt(at('workers'), () => parseWorkers(doc.workers, 'workers')),
  };
  p.throwIfAny();
  return { ...(config as ServerConfig), warnings: p.warnings() };
}

/**
 * Refuses (as errors) keys that are neither acted on nor accepted, and warns about the accepted
 * ones, naming each with its line.
 */
function checkKeys(
  p: ConfigProblems,
  block: Block,
  known: readonly string[],
  inert: NoEffectKeys,
  where: string,
): boolean {
  let isClean = true;
  for (const key of Object.keys(block)) {
    if (known.includes(key)) continue;
    const line = p.lineOf(block, key);
    const reason = inert.get(key);
    if (reason !== undefined) {
      p.warn(line, `"${key}" ${where} has no effect in Ward: ${reason}`);
      continue;
    }
    isClean = false;
    p.error(line, `unknown key "${key}" ${where}${nearest(key, [...known, ...inert.keys()])}`);
  }
  return isClean;
}

/** `log_level` and `log_format`, each problem at the line of its key. */
function logSection(p: ConfigProblems, doc: Block): { logLevel: LogLevel; logJson: boolean } {
  const only = (key: string) => ({ [key]: doc[key] });
  const level = p.attempt(p.lineOf(doc, 'log_level'), () => logSettings(only('log_level')).logLevel);
  const json = p.attempt(p.lineOf(doc, 'log_format'), () => logSettings(only('log_format')).logJson);
  return { logLevel: level ?? 'info', logJson: json ?? false };
}

/** Exactly one `storage` (or legacy `backend`) block, of a type the storage registry knows. */
function storageSection(p: ConfigProblems, doc: Block): StorageConfig | undefined {
  const line = p.lineOf(doc, 'storage') ?? p.lineOf(doc, 'backend');
  const found = p.attempt(line, () => [...labelled(doc.storage, 'storage'), ...labelled(doc.backend, 'backend')]) ?? [];
  if (found.length !== 1) {
    if (doc.storage !== undefined || doc.backend !== undefined || found.length === 0) {
      p.error(line, 'exactly one storage (or backend) block is required');
    }
    return undefined;
  }
  const [type, body] = found[0] as [string, Block];
  const kind = p.attempt(line, () => storageTypeOf(type));
  if (!kind) return undefined;
  // A block with an unknown key is not checked further: a misspelt key would only make a second error.
  if (!checkKeys(p, body, kind.keys, NONE, `in storage "${type}"`)) return undefined;
  return p.attempt(line, () => parseStorageBlock(type, body));
}

function listenerSection(p: ConfigProblems, type: string, body: Block): ListenerConfig | undefined {
  const line = p.lineOfBlock(body);
  if (type !== 'tcp') {
    p.error(line, `unknown listener type "${type}"; use "tcp"`);
    return undefined;
  }
  let isClean = checkKeys(p, body, SERVER_LISTENER_KEYS, LISTENER_NO_EFFECT, 'in listener "tcp"');
  const telemetry = p.attempt(p.lineOf(body, 'telemetry'), () => blocks(body.telemetry, 'telemetry')) ?? [];
  for (const t of telemetry) {
    isClean = checkKeys(p, t, LISTENER_TELEMETRY_KEYS, NONE, 'in listener "tcp" telemetry') && isClean;
  }
  return isClean ? p.attempt(line, () => serverListenerConfig(body, telemetry)) : undefined;
}

function sealSection(p: ConfigProblems, doc: Block): SealsConfig | undefined {
  const line = p.lineOf(doc, 'seal');
  const stanzas = p.attempt(line, () => labelled(doc.seal, 'seal')) ?? [];
  // Unknown keys are errors with their own lines; the stanza is then not validated further.
  let hasUnknown = false;
  const refuseUnknown = (block: Block, known: readonly string[], where: string) => {
    for (const key of Object.keys(block)) {
      if (known.includes(key)) continue;
      hasUnknown = true;
      p.error(p.lineOf(block, key), `unknown key "${key}" ${where}${nearest(key, known)}`);
    }
  };
  const seals = p.attempt(line, () => parseSeals(stanzas, refuseUnknown));
  // The keys a seal accepts without acting on them are named at startup by seal-wiring.ts.
  return hasUnknown ? undefined : seals;
}

/** `kms_library "pkcs11" { name = "softhsm" library = "/usr/lib/softhsm/libsofthsm2.so" }`; names unique ignoring case. */
function kmsLibraries(p: ConfigProblems, doc: Block): Map<string, string> {
  const out = new Map<string, string>();
  const stanzas = p.attempt(p.lineOf(doc, 'kms_library'), () => labelled(doc.kms_library, 'kms_library')) ?? [];
  for (const [type, body] of stanzas) {
    const line = p.lineOfBlock(body);
    if (type !== 'pkcs11') {
      p.error(line, `unknown kms_library type "${type}"; use "pkcs11"`);
      continue;
    }
    if (!checkKeys(p, body, KMS_LIBRARY_KEYS, NONE, 'in kms_library "pkcs11"')) continue;
    p.attempt(line, () => {
      if (typeof body.name !== 'string' || body.name === '')
        throw new InvalidRequestError('kms_library "pkcs11" needs a name');
      if (typeof body.library !== 'string' || body.library === '')
        throw new InvalidRequestError(`kms_library "${body.name}" needs a library path`);
      const name = body.name.toLowerCase();
      if (out.has(name)) throw new InvalidRequestError(`kms_library "${body.name}" is defined twice`);
      out.set(name, body.library);
    });
  }
  return out;
}

/**
 * `default_lease_ttl` and `max_lease_ttl`: any duration; each one absent is the established 768h,
 * and, as there, the default may not exceed the max.
 */
function systemTtls(doc: Block): SystemTtls | undefined {
  if (doc.default_lease_ttl === undefined && doc.max_lease_ttl === undefined) return undefined;
  const read = (key: string, fallback: number) => {
    if (doc[key] === undefined) return fallback;
    const seconds = parseDurationSeconds(doc[key], key);
    if (seconds <= 0)
      throw new InvalidRequestError(`${key} must be a positive duration, got ${JSON.stringify(doc[key])}`);
    return seconds;
  };
  const defaultLeaseTtlSeconds = read('default_lease_ttl', ESTABLISHED_SYSTEM_TTLS.defaultLeaseTtlSeconds);
  const maxLeaseTtlSeconds = read('max_lease_ttl', ESTABLISHED_SYSTEM_TTLS.maxLeaseTtlSeconds);
  if (defaultLeaseTtlSeconds > maxLeaseTtlSeconds) {
    throw new InvalidRequestError(
      `default_lease_ttl (${formatDurationSeconds(defaultLeaseTtlSeconds)}) cannot be larger than max_lease_ttl (${formatDurationSeconds(maxLeaseTtlSeconds)})`,
    );
  }
  return { defaultLeaseTtlSeconds, maxLeaseTtlSeconds };
}

/**
 * `log_file`, as established: a path ending in `/` gets the file name `ward.log`, and a name
 * without an extension gets `.log`.
 */
function logFile(raw: unknown): string | undefined {
  const path = optionalString(raw, 'log_file');
  if (path === undefined || path === '') return undefined;
  if (path.endsWith('/')) return `${path}ward.log`;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.includes('.') ? path : `${path}.log`;
}

/** The `telemetry` block (at most one): hostname label and how long Prometheus output is kept. */
function telemetryConfig(bodies: Block[]): TelemetryConfig {
  if (bodies.length > 1) throw new InvalidRequestError('at most one telemetry block is allowed');
  const body = bodies[0] ?? {};
  const retention = body.prometheus_retention_time;
  return {
    disableHostname: parseBool(body.disable_hostname, 'disable_hostname'),
    prometheusRetentionSeconds:
      retention === undefined ? 0 : parseDurationSeconds(retention, 'prometheus_retention_time'),
  };
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${key} must be a string`);
  return value;
}
