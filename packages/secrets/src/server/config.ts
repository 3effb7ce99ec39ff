import { readFile } from 'node:fs/promises';
import { parse } from '@cdktf/hcl2json';
import { LOG_LEVELS, type LogLevel } from '@ward/base';
import type { ListenerTlsOptions } from '../http/listener.js';
import { InvalidRequestError } from '../logical/errors.js';

export interface ListenerConfig {
  address: string;
  tlsDisable: boolean;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Bytes; 0 = the default 32 MiB; negative = unlimited. */
  maxRequestSize: number;
  /** `require_request_header`: refuse (412) requests without `X-Vault-Request: true`. */
  requireRequestHeader?: boolean;
}

export interface StorageConfig {
  type: 'sqlite' | 'inmem';
  /** SQLite database file. */
  path?: string;
}

/** The server configuration file, in the established HCL layout. */
export interface ServerConfig {
  storage: StorageConfig;
  listeners: ListenerConfig[];
  apiAddr?: string;
  logLevel: LogLevel;
  logJson: boolean;
}

/** One block of a parsed configuration document. */
export type Block = Record<string, unknown>;

/** Reads and validates an HCL (or JSON) configuration file. */
export async function loadConfigFile(file: string): Promise<ServerConfig> {
  return parseConfig(await readConfigDocument(file));
}

/** Reads an HCL (or JSON) file as a document: labelled blocks become maps of arrays, blocks arrays. */
export async function readConfigDocument(file: string): Promise<Block> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InvalidRequestError(`error loading configuration from ${file}: ${(err as Error).message}`);
  }
  let doc: Block;
  try {
    doc = text.trimStart().startsWith('{') ? JSON.parse(text) : ((await parse(file, text)) as Block);
  } catch (err) {
    throw new InvalidRequestError(`error loading configuration from ${file}: ${(err as Error).message}`);
  }
  return doc;
}

/** Validates a parsed configuration document (HCL as JSON: labelled blocks are maps of arrays). */
export function parseConfig(doc: Block): ServerConfig {
  // `backend` is the legacy name of `storage` (hvac's and node-vault's example configs use it).
  const storageBlocks = [...labelled(doc.storage, 'storage'), ...labelled(doc.backend, 'backend')];
  if (storageBlocks.length !== 1) throw new InvalidRequestError('exactly one storage (or backend) block is required');
  const [storageType, storageBody] = storageBlocks[0] as [string, Block];
  if (storageType !== 'sqlite' && storageType !== 'inmem') {
    throw new InvalidRequestError(`unknown storage type "${storageType}"; use "sqlite" or "inmem"`);
  }
  if (storageType === 'sqlite' && typeof storageBody.path !== 'string') {
    throw new InvalidRequestError('storage "sqlite" needs a path');
  }
  const listeners = labelled(doc.listener, 'listener').map(([type, body]) => {
    if (type !== 'tcp') throw new InvalidRequestError(`unknown listener type "${type}"; use "tcp"`);
    return listenerConfig(body);
  });
  if (listeners.length === 0) throw new InvalidRequestError('at least one listener block is required');
  const logLevel = String(doc.log_level ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) throw new InvalidRequestError(`unknown log_level "${logLevel}"`);
  return {
    storage: { type: storageType, path: storageBody.path as string | undefined },
    listeners,
    apiAddr: typeof doc.api_addr === 'string' ? doc.api_addr : undefined,
    logLevel: logLevel as LogLevel,
    logJson: doc.log_format === 'json',
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
  };
  if (!Number.isInteger(config.maxRequestSize)) throw new InvalidRequestError('max_request_size must be an integer');
  if (!tlsDisable && (!config.tlsCertFile || !config.tlsKeyFile)) {
    throw new InvalidRequestError(
      `listener ${config.address}: tls_cert_file and tls_key_file are required unless tls_disable = true`,
    );
  }
  return config;
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
