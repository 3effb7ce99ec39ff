import { readFile } from 'node:fs/promises';
import type { SecureVersion } from 'node:tls';
import { parseCidrs, parseDurationSeconds } from '../framework/index.js';
import { CLIENT_CERT_DECODERS, type ClientCertDecoder } from '../http/forwarded-client-cert.js';
import { DEFAULT_JSON_LIMITS, type JsonLimits, MAX_JSON_DEPTH_SETTING } from '../http/json-body.js';
import type { ListenerTlsOptions } from '../http/listener.js';
import { InvalidRequestError } from '../logical/errors.js';
import { parseBool } from './config-document.js';
import { cipherList } from './tls-ciphers.js';

type Block = Record<string, unknown>;

/** `x_forwarded_for_*`: whose X-Forwarded-For is believed, and which hop is the client. */
export interface ForwardedForConfig {
  authorizedCidrs: string[];
  hopSkips: number;
  rejectNotAuthorized: boolean;
  rejectNotPresent: boolean;
  /** `x_forwarded_for_client_cert_header`: the header an authorized peer passes the client certificate in. */
  clientCertHeader?: string;
  /** `x_forwarded_for_client_cert_header_decoders`: `BASE64`, `DER`, `URL`, applied in order. */
  clientCertDecoders?: ClientCertDecoder[];
}

/** `proxy_protocol_behavior` and `proxy_protocol_authorized_addrs`. */
export interface ProxyProtocolConfig {
  behavior: 'use_always' | 'allow_authorized' | 'deny_unauthorized';
  authorizedCidrs: string[];
}

/** How the listener treats client certificates: requested (the default, as established), required, or not asked for. */
export type ClientCertMode = 'request' | 'require' | 'none';

export interface ListenerConfig {
  address: string;
  /** A Unix socket instead of `address`: the API socket of one worker process (`workers`), never from the file. */
  socketPath?: string;
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
  /** `cluster_address`: where this server's cluster listener binds (HA); `cluster_addr` is what it advertises. */
  clusterAddress?: string;
  /** `tls_min_version` / `tls_max_version` (established default tls12 … tls13). */
  tlsMinVersion?: SecureVersion;
  tlsMaxVersion?: SecureVersion;
  /** `tls_cipher_suites`, as an OpenSSL cipher list (TLS 1.2 and below, as established). */
  tlsCiphers?: string;
  /** `tls_client_ca_file`: the CAs client certificates are checked against. */
  tlsClientCaFile?: string;
  /** `tls_require_and_verify_client_cert` / `tls_disable_client_certs`. */
  clientCertMode?: ClientCertMode;
  /** `max_request_duration`; undefined = the established 90 s. */
  maxRequestDurationMs?: number;
  /** `http_idle_timeout`; undefined = 5 minutes. */
  idleTimeoutMs?: number;
  forwardedFor?: ForwardedForConfig;
  proxyProtocol?: ProxyProtocolConfig;
}

/** The keys of a `listener "tcp"` block that both the server and the proxy read. */
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

/** The keys only the server's listeners act on (read by `serverListenerConfig`). */
export const SERVER_LISTENER_KEYS: readonly string[] = [
  ...LISTENER_KEYS,
  'telemetry',
  'cluster_address',
  'tls_min_version',
  'tls_max_version',
  'tls_cipher_suites',
  'tls_client_ca_file',
  'tls_require_and_verify_client_cert',
  'tls_disable_client_certs',
  'max_request_duration',
  'http_idle_timeout',
  'x_forwarded_for_authorized_addrs',
  'x_forwarded_for_hop_skips',
  'x_forwarded_for_reject_not_authorized',
  'x_forwarded_for_reject_not_present',
  'x_forwarded_for_client_cert_header',
  'x_forwarded_for_client_cert_header_decoders',
  'proxy_protocol_behavior',
  'proxy_protocol_authorized_addrs',
];

const TLS_VERSIONS: ReadonlyMap<string, SecureVersion> = new Map<string, SecureVersion>([
  ['tls10', 'TLSv1'],
  ['tls11', 'TLSv1.1'],
  ['tls12', 'TLSv1.2'],
  ['tls13', 'TLSv1.3'],
]);
const VERSION_ORDER: readonly SecureVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
const PROXY_BEHAVIORS = new Set(['use_always', 'allow_authorized', 'deny_unauthorized']);

/** The settings of a `listener "tcp"` block that the proxy shares, validated. */
export function listenerConfig(body: Block): ListenerConfig {
  const tlsDisable = parseBool(body.tls_disable, 'tls_disable');
  const config: ListenerConfig = {
    address: typeof body.address === 'string' ? body.address : '127.0.0.1:8200',
    tlsDisable,
    tlsCertFile: optionalString(body.tls_cert_file, 'tls_cert_file'),
    tlsKeyFile: optionalString(body.tls_key_file, 'tls_key_file'),
    maxRequestSize: Number(body.max_request_size ?? 0),
    requireRequestHeader: parseBool(body.require_request_header, 'require_request_header'),
    jsonLimits: jsonLimits(body),
  };
  if (!Number.isInteger(config.maxRequestSize)) throw new InvalidRequestError('max_request_size must be an integer');
  if (!tlsDisable && (!config.tlsCertFile || !config.tlsKeyFile)) {
    throw new InvalidRequestError(
      `listener ${config.address}: tls_cert_file and tls_key_file are required unless tls_disable = true`,
    );
  }
  return config;
}

/** A server listener: the shared settings plus TLS versions, ciphers, client certificates and proxies. */
export function serverListenerConfig(body: Block, telemetry: Block[]): ListenerConfig {
  const config = listenerConfig(body);
  const version = (key: string) => {
    const raw = optionalString(body[key], key);
    if (raw === undefined) return undefined;
    const v = TLS_VERSIONS.get(raw.toLowerCase());
    if (!v) throw new InvalidRequestError(`${key}: unknown TLS version "${raw}"; use tls10, tls11, tls12 or tls13`);
    return v;
  };
  const tlsMinVersion = version('tls_min_version');
  const tlsMaxVersion = version('tls_max_version');
  if (tlsMinVersion && tlsMaxVersion && VERSION_ORDER.indexOf(tlsMinVersion) > VERSION_ORDER.indexOf(tlsMaxVersion)) {
    throw new InvalidRequestError('tls_min_version cannot be above tls_max_version');
  }
  const require = parseBool(body.tls_require_and_verify_client_cert, 'tls_require_and_verify_client_cert');
  const disable = parseBool(body.tls_disable_client_certs, 'tls_disable_client_certs');
  if (require && disable) {
    throw new InvalidRequestError(
      "'tls_disable_client_certs' and 'tls_require_and_verify_client_cert' are mutually exclusive",
    );
  }
  const ciphers = optionalString(body.tls_cipher_suites, 'tls_cipher_suites');
  return {
    ...config,
    unauthenticatedMetricsAccess: telemetry.some((t) =>
      parseBool(t.unauthenticated_metrics_access, 'unauthenticated_metrics_access'),
    ),
    clusterAddress: optionalString(body.cluster_address, 'cluster_address'),
    tlsMinVersion,
    tlsMaxVersion,
    tlsCiphers: ciphers === undefined ? undefined : cipherList(ciphers),
    tlsClientCaFile: optionalString(body.tls_client_ca_file, 'tls_client_ca_file'),
    clientCertMode: require ? 'require' : disable ? 'none' : 'request',
    maxRequestDurationMs: durationMs(body.max_request_duration, 'max_request_duration'),
    idleTimeoutMs: durationMs(body.http_idle_timeout, 'http_idle_timeout'),
    forwardedFor: forwardedFor(body),
    proxyProtocol: proxyProtocol(body),
  };
}

function forwardedFor(body: Block): ForwardedForConfig | undefined {
  const raw = body.x_forwarded_for_authorized_addrs;
  for (const key of ['hop_skips', 'reject_not_authorized', 'reject_not_present', 'client_cert_header']) {
    if (raw === undefined && body[`x_forwarded_for_${key}`] !== undefined) {
      throw new InvalidRequestError(`x_forwarded_for_${key} needs x_forwarded_for_authorized_addrs`);
    }
  }
  if (raw === undefined) return undefined;
  const hopSkips = Number(body.x_forwarded_for_hop_skips ?? 0);
  if (!Number.isInteger(hopSkips) || hopSkips < 0) {
    throw new InvalidRequestError('x_forwarded_for_hop_skips must be a whole number, 0 or more');
  }
  const rejectNotAuthorized = body.x_forwarded_for_reject_not_authorized;
  const rejectNotPresent = body.x_forwarded_for_reject_not_present;
  return {
    authorizedCidrs: addressList(raw, 'x_forwarded_for_authorized_addrs'),
    hopSkips,
    rejectNotAuthorized:
      rejectNotAuthorized === undefined || parseBool(rejectNotAuthorized, 'x_forwarded_for_reject_not_authorized'),
    rejectNotPresent:
      rejectNotPresent === undefined || parseBool(rejectNotPresent, 'x_forwarded_for_reject_not_present'),
    clientCertHeader: optionalString(body.x_forwarded_for_client_cert_header, 'x_forwarded_for_client_cert_header'),
    clientCertDecoders: clientCertDecoders(body),
  };
}

const DECODERS: ReadonlySet<string> = new Set(CLIENT_CERT_DECODERS);

function clientCertDecoders(body: Block): ClientCertDecoder[] {
  const key = 'x_forwarded_for_client_cert_header_decoders';
  const raw = optionalString(body[key], key);
  if (raw === undefined || raw.trim() === '') return [];
  if (body.x_forwarded_for_client_cert_header === undefined) {
    throw new InvalidRequestError(`${key} needs x_forwarded_for_client_cert_header`);
  }
  return raw.split(',').map((d) => {
    const decoder = d.trim();
    if (!DECODERS.has(decoder)) {
      throw new InvalidRequestError(`${key}: unknown decoder ${JSON.stringify(decoder)}; use BASE64, DER or URL`);
    }
    return decoder as ClientCertDecoder;
  });
}

function proxyProtocol(body: Block): ProxyProtocolConfig | undefined {
  const behavior = optionalString(body.proxy_protocol_behavior, 'proxy_protocol_behavior');
  const raw = body.proxy_protocol_authorized_addrs;
  if (behavior === undefined) {
    if (raw !== undefined)
      throw new InvalidRequestError('proxy_protocol_authorized_addrs needs proxy_protocol_behavior');
    return undefined;
  }
  if (!PROXY_BEHAVIORS.has(behavior)) {
    throw new InvalidRequestError(
      `proxy_protocol_behavior must be "use_always", "allow_authorized" or "deny_unauthorized", got "${behavior}"`,
    );
  }
  const authorizedCidrs = raw === undefined ? [] : addressList(raw, 'proxy_protocol_authorized_addrs');
  if (behavior !== 'use_always' && authorizedCidrs.length === 0) {
    throw new InvalidRequestError(`proxy_protocol_behavior "${behavior}" needs proxy_protocol_authorized_addrs`);
  }
  return { behavior: behavior as ProxyProtocolConfig['behavior'], authorizedCidrs };
}

/** A comma-separated string or a list of addresses and CIDR blocks. */
function addressList(raw: unknown, key: string): string[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (!items || items.some((i) => typeof i !== 'string')) {
    throw new InvalidRequestError(`${key} must be a comma-separated string or a list of addresses`);
  }
  const values = (items as string[]).map((i) => i.trim()).filter((i) => i !== '');
  // An `address:port` entry names the host only (the established dev config writes one).
  return parseCidrs(values.map(stripPort), key);
}

function stripPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1] as string;
  const hostPort = /^([^:/]+):\d+$/.exec(value);
  return hostPort ? (hostPort[1] as string) : value;
}

function durationMs(raw: unknown, key: string): number | undefined {
  return raw === undefined ? undefined : parseDurationSeconds(raw, key) * 1000;
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

/** The certificate, key, versions, ciphers and client-certificate policy a listener block names; undefined for plain HTTP. */
export async function readListenerTls(l: ListenerConfig): Promise<ListenerTlsOptions | undefined> {
  if (l.tlsDisable || !l.tlsCertFile || !l.tlsKeyFile) return undefined;
  const read = async (file: string, key: string) => {
    try {
      return await readFile(file);
    } catch (err) {
      throw new InvalidRequestError(`listener ${l.address}: cannot read ${key} ${file}: ${(err as Error).message}`);
    }
  };
  return {
    cert: await read(l.tlsCertFile, 'tls_cert_file'),
    key: await read(l.tlsKeyFile, 'tls_key_file'),
    ca: l.tlsClientCaFile ? await read(l.tlsClientCaFile, 'tls_client_ca_file') : undefined,
    minVersion: l.tlsMinVersion ?? 'TLSv1.2',
    maxVersion: l.tlsMaxVersion ?? 'TLSv1.3',
    ciphers: l.tlsCiphers,
    clientCerts: l.clientCertMode ?? 'request',
  };
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${key} must be a string`);
  return value;
}
