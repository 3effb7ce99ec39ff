import { type LogLevel, parseGoBool } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import {
  type Block,
  blocks,
  type ConfigSource,
  LISTENER_KEYS,
  type ListenerConfig,
  labelled,
  listenerConfig,
  logSettings,
  parseBool,
  readConfigFile,
  unknownKeyCheck,
} from '../server/config.js';

/** Where the proxy forwards to: the `vault { }` stanza (also spelled `server { }`). */
export interface UpstreamConfig {
  /** Base address of the server, e.g. `https://127.0.0.1:8200`. */
  address: string;
  /** PEM file of the CA to trust for the server's certificate. */
  caCert?: string;
  tlsSkipVerify: boolean;
}

export interface ProxyListenerConfig extends ListenerConfig {
  type: 'tcp' | 'unix';
  /** `proxy_api { enable_quit = true }`: `POST /proxy/v1/quit` stops the proxy. */
  isQuitEnabled: boolean;
}

export type AutoAuthMethodConfig =
  | { type: 'token_file'; tokenFilePath: string }
  | { type: 'userpass'; mountPath: string; username: string; passwordFilePath: string };

export interface FileSinkConfig {
  path: string;
  /** File mode bits; 0 leaves the mode a new file gets from the umask. */
  mode: number;
}

/** `true`: add the proxy's token when the client sent none; `force`: replace the client's. */
export type UseAutoAuthToken = boolean | 'force';

/** The proxy configuration file, in the established HCL layout. */
export interface ProxyConfig {
  upstream: UpstreamConfig;
  listeners: ProxyListenerConfig[];
  useAutoAuthToken: UseAutoAuthToken;
  autoAuth?: { method: AutoAuthMethodConfig; sinks: FileSinkConfig[] };
  isCacheEnabled: boolean;
  pidFile?: string;
  /** Exit once the first token is in every sink (no listener is started). */
  exitAfterAuth: boolean;
  logLevel: LogLevel;
  logJson: boolean;
}

/** The established default for a file sink: owner read-write, group read. */
const DEFAULT_SINK_MODE = 0o640;

/** Reads and validates a proxy configuration file (HCL or JSON). */
export async function loadProxyConfig(file: string): Promise<ProxyConfig> {
  const { doc, source } = await readConfigFile(file);
  return parseProxyConfig(doc, source);
}

/** Keys each block may hold; anything else is refused by name and line, as for the server. */
const KNOWN_KEYS = {
  top: [
    'vault',
    'server',
    'listener',
    'api_proxy',
    'auto_auth',
    'cache',
    'pid_file',
    'exit_after_auth',
    'log_level',
    'log_format',
  ],
  vault: ['address', 'ca_cert', 'tls_skip_verify'],
  listener: [...LISTENER_KEYS, 'proxy_api'],
  proxyApi: ['enable_quit'],
  apiProxy: ['use_auto_auth_token'],
  autoAuth: ['method', 'sink'],
  method: ['type', 'mount_path', 'config'],
  methodConfig: new Map<string, readonly string[]>([
    ['token_file', ['token_file_path']],
    ['userpass', ['username', 'password_file_path']],
  ]),
  sink: ['type', 'config'],
  sinkConfig: ['path', 'mode'],
  cache: [] as string[],
};

type KeyCheck = ReturnType<typeof unknownKeyCheck>;

/** Validates a parsed proxy configuration document. */
function parseProxyConfig(doc: Block, source?: ConfigSource): ProxyConfig {
  const check = unknownKeyCheck(source);
  check(doc, KNOWN_KEYS.top, 'at the top level');
  const upstreamBlocks = [...blocks(doc.vault, 'vault'), ...blocks(doc.server, 'server')];
  if (upstreamBlocks.length !== 1) throw new InvalidRequestError('exactly one vault (or server) block is required');
  check(upstreamBlocks[0] as Block, KNOWN_KEYS.vault, 'in vault');
  for (const body of blocks(doc.cache, 'cache')) check(body, KNOWN_KEYS.cache, 'in cache');
  const autoAuthBlocks = blocks(doc.auto_auth, 'auto_auth');
  if (autoAuthBlocks.length > 1) throw new InvalidRequestError('at most one auto_auth block is allowed');
  const autoAuth = autoAuthBlocks[0] && autoAuthConfig(autoAuthBlocks[0], check);
  const exitAfterAuth = parseBool(doc.exit_after_auth, 'exit_after_auth');
  if (exitAfterAuth && !autoAuth) throw new InvalidRequestError('exit_after_auth needs an auto_auth block');
  const listeners = labelled(doc.listener, 'listener').map(([type, body]) => proxyListenerConfig(type, body, check));
  if (listeners.length === 0 && !exitAfterAuth)
    throw new InvalidRequestError('at least one listener block is required');
  const apiProxy = blocks(doc.api_proxy, 'api_proxy');
  for (const body of apiProxy) check(body, KNOWN_KEYS.apiProxy, 'in api_proxy');
  const useAutoAuthToken = apiProxyConfig(apiProxy);
  if (useAutoAuthToken !== false && !autoAuth) {
    throw new InvalidRequestError('api_proxy use_auto_auth_token needs an auto_auth block');
  }
  return {
    upstream: upstreamConfig(upstreamBlocks[0] as Block),
    listeners,
    useAutoAuthToken,
    autoAuth,
    isCacheEnabled: blocks(doc.cache, 'cache').length > 0,
    pidFile: optionalString(doc.pid_file, 'pid_file'),
    exitAfterAuth,
    ...logSettings(doc, source),
  };
}

function upstreamConfig(body: Block): UpstreamConfig {
  const address = optionalString(body.address, 'vault address');
  if (!address) throw new InvalidRequestError('vault block: address is required');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new InvalidRequestError(`vault block: invalid address ${JSON.stringify(address)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError('vault block: address must be an http:// or https:// URL');
  }
  return {
    address: address.replace(/\/+$/, ''),
    caCert: optionalString(body.ca_cert, 'ca_cert'),
    tlsSkipVerify: parseBool(body.tls_skip_verify, 'tls_skip_verify'),
  };
}

function proxyListenerConfig(type: string, body: Block, check: KeyCheck): ProxyListenerConfig {
  check(body, KNOWN_KEYS.listener, `in listener "${type}"`);
  if (type !== 'tcp' && type !== 'unix')
    throw new InvalidRequestError(`unknown listener type "${type}"; use "tcp" or "unix"`);
  if (type === 'unix' && typeof body.address !== 'string')
    throw new InvalidRequestError('listener "unix" needs an address');
  // A Unix socket is local by nature; TLS on it is allowed but not required.
  const common = listenerConfig(
    type === 'unix' && body.tls_disable === undefined ? { ...body, tls_disable: true } : body,
  );
  const proxyApi = blocks(body.proxy_api, 'proxy_api')[0] ?? {};
  check(proxyApi, KNOWN_KEYS.proxyApi, 'in proxy_api');
  return { ...common, type, isQuitEnabled: parseBool(proxyApi.enable_quit, 'enable_quit') };
}

function apiProxyConfig(apiProxy: Block[]): UseAutoAuthToken {
  if (apiProxy.length > 1) throw new InvalidRequestError('at most one api_proxy block is allowed');
  const value = apiProxy[0]?.use_auto_auth_token;
  if (typeof value === 'string' && value.toLowerCase() === 'force') return 'force';
  const flag = typeof value === 'string' ? parseGoBool(value) : (value ?? false);
  if (typeof flag === 'boolean') return flag;
  throw new InvalidRequestError('use_auto_auth_token must be true, false or "force"');
}

function autoAuthConfig(body: Block, check: KeyCheck): { method: AutoAuthMethodConfig; sinks: FileSinkConfig[] } {
  check(body, KNOWN_KEYS.autoAuth, 'in auto_auth');
  const methods = typedBlocks(body.method, 'method');
  if (methods.length !== 1) throw new InvalidRequestError('auto_auth needs exactly one method block');
  const sinks = typedBlocks(body.sink, 'sink').map(([type, sink]) => {
    if (type !== 'file') throw new InvalidRequestError(`unknown sink type "${type}"; use "file"`);
    check(sink, KNOWN_KEYS.sink, 'in sink "file"');
    const config = settings(sink);
    check(config, KNOWN_KEYS.sinkConfig, 'in the config of sink "file"');
    return fileSinkConfig(config);
  });
  const [type, method] = methods[0] as [string, Block];
  check(method, KNOWN_KEYS.method, `in method "${type}"`);
  const known = KNOWN_KEYS.methodConfig.get(type);
  if (known) check(settings(method), known, `in the config of method "${type}"`);
  return { method: methodConfig(type, method), sinks };
}

function methodConfig(type: string, body: Block): AutoAuthMethodConfig {
  const config = settings(body);
  if (type === 'token_file') {
    return { type, tokenFilePath: requiredString(config.token_file_path, 'token_file method: token_file_path') };
  }
  if (type === 'userpass') {
    const mountPath = optionalString(body.mount_path, 'mount_path') ?? 'auth/userpass';
    return {
      type,
      mountPath: mountPath.replace(/^\/+|\/+$/g, ''),
      username: requiredString(config.username, 'userpass method: username'),
      passwordFilePath: requiredString(config.password_file_path, 'userpass method: password_file_path'),
    };
  }
  throw new InvalidRequestError(`unknown auto_auth method "${type}"; use "token_file" or "userpass"`);
}

function fileSinkConfig(config: Block): FileSinkConfig {
  return { path: requiredString(config.path, 'file sink: path'), mode: fileMode(config.mode) };
}

/**
 * `mode = 0640` in HCL reaches us as the number 640 (HCL 2 reads decimal), so a number's digits are
 * read as octal, as the established (HCL 1) parser did; a string such as "0640" works too.
 */
function fileMode(value: unknown): number {
  if (value === undefined) return DEFAULT_SINK_MODE;
  // HCL1 reads `mode = 0640` as the octal number it is; a quoted "0640" is read here.
  if (typeof value === 'number') return checkMode(value);
  const digits = String(value);
  if (!/^0*[0-7]{1,4}$/.test(digits)) throw new InvalidRequestError(`file sink: invalid mode ${JSON.stringify(value)}`);
  return checkMode(Number.parseInt(digits, 8));
}

function checkMode(mode: number): number {
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) {
    throw new InvalidRequestError('file sink: mode takes permission bits only (at most 0777)');
  }
  return mode;
}

/** A method's or sink's `config = { … }` (an attribute) or `config { … }` (a block). */
function settings(body: Block): Block {
  const config = body.config;
  if (config === undefined) return {};
  const list = Array.isArray(config) ? config : [config];
  if (list.length !== 1 || typeof list[0] !== 'object' || list[0] === null)
    throw new InvalidRequestError('invalid config');
  return list[0] as Block;
}

/** `method "userpass" { … }` and `method { type = "userpass" … }` both, as `[type, body]` pairs. */
function typedBlocks(value: unknown, what: string): Array<[string, Block]> {
  if (!Array.isArray(value)) return labelled(value, what);
  return blocks(value, what).map((body) => [requiredString(body.type, `${what} type`), body]);
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${what} must be a string`);
  return value;
}

function requiredString(value: unknown, what: string): string {
  const s = optionalString(value, what);
  if (!s) throw new InvalidRequestError(`${what} is required`);
  return s;
}
