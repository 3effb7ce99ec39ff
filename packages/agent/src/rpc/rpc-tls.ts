import { readFileSync } from 'node:fs';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { TlsConfig } from '../config/config.js';
import { ConfigError } from '../config/errors.js';

/**
 * Mutual TLS on the RPC port (`tls { rpc = true }`): both ends present a certificate from
 * `ca_file`. With `verify_server_hostname`, a server's certificate must name
 * `server.<region>.nomad` (the established scheme; clients hold `client.<region>.nomad`): an
 * agent dialing a server checks it, and a server takes Raft traffic only from such a peer.
 */
export interface RpcTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** `server.<region>.nomad` when `verify_server_hostname` is on; undefined: any certificate of the CA. */
  serverName: string | undefined;
  /** `client.<region>.nomad`: what a client agent's certificate names (checked when dialing a client). */
  clientName: string;
}

/** The TLS material of `tls`, read now (a missing or unreadable file stops the agent), or undefined without `rpc`. */
export function loadRpcTls(tls: TlsConfig, region: string): RpcTls | undefined {
  if (!tls.rpc) return undefined;
  const read = (key: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new ConfigError(`tls.${key}: cannot read ${path}: ${(err as Error).message}`);
    }
  };
  return {
    ca: read('ca_file', tls.caFile),
    cert: read('cert_file', tls.certFile),
    key: read('key_file', tls.keyFile),
    serverName: tls.verifyServerHostname ? `server.${region}.nomad` : undefined,
    clientName: `client.${region}.nomad`,
  };
}

/** Whether `cert` names `name` (DNS subject alternative names, then the common name). */
export function certNames(cert: PeerCertificate, name: string): boolean {
  return checkServerIdentity(name, cert) === undefined;
}
