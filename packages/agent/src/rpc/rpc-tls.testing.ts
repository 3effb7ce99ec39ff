import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Issued, makeTestPki } from '@ward/base/testing';
import type { TlsConfig } from '../config/config.js';

/** The certificates of the tests of mutual TLS on RPC, from one openssl PKI (`makeTestPki`). */
export interface ClusterPki {
  dir: string;
  /** The cluster's CA certificate file, and one of a rogue's CA. */
  ca: string;
  rogueCa: string;
  /** `server.global.nomad` and `client.global.nomad` of the cluster's CA (both ends of mutual TLS use them). */
  server: Issued;
  client: Issued;
  /** A certificate naming `server.global.nomad` too, of the rogue's CA. */
  rogueServer: Issued;
  remove(): Promise<void>;
}

/** A certificate for `dns` (and localhost, 127.0.0.1) usable by both ends of a TLS connection. */
const peer = (dns: string) => ({
  subject: `/CN=${dns}`,
  extensions: [`subjectAltName=DNS:${dns},DNS:localhost,IP:127.0.0.1`, 'extendedKeyUsage=serverAuth,clientAuth'],
});

export async function makeClusterPki(): Promise<ClusterPki> {
  const pki = await makeTestPki();
  const rogueCa = await pki.ca('rogue-ca');
  return {
    dir: pki.dir,
    ca: pki.caFile,
    rogueCa: rogueCa.certFile,
    server: await pki.issue('agent-server', peer('server.global.nomad')),
    client: await pki.issue('agent-client', peer('client.global.nomad')),
    rogueServer: await pki.issue('rogue-server', { ...peer('server.global.nomad'), issuer: 'rogue-ca' }),
    remove: () => pki.remove(),
  };
}

/** `tls { rpc = true, verify_server_hostname = true }` with `cert`, trusting the CA in `caFile`. */
export function tlsLayer(cert: Issued, caFile: string): TlsConfig {
  return { rpc: true, verifyServerHostname: true, caFile, certFile: cert.certFile, keyFile: cert.keyFile };
}

/** `tls` written as the `tls { … }` block of an HCL file `<name>.hcl` in `dir`; answers the `-config=` flag for it. */
export async function tlsConfigFlag(dir: string, name: string, tls: TlsConfig): Promise<string> {
  const path = join(dir, `${name}.hcl`);
  await writeFile(
    path,
    `tls {
  rpc                    = ${tls.rpc}
  verify_server_hostname = ${tls.verifyServerHostname}
  ca_file                = "${tls.caFile}"
  cert_file              = "${tls.certFile}"
  key_file               = "${tls.keyFile}"
}
`,
  );
  return `-config=${path}`;
}
