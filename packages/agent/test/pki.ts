import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TlsConfig } from '../src/config/config.js';

/** A CA and certificates made by the openssl command line, as an operator would. */
export function makePki(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) =>
    ssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${name}`,
    );
  const issue = (ca: string, name: string, dns: string) => {
    writeFileSync(
      join(dir, `${name}.ext`),
      `subjectAltName=DNS:${dns},DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n`,
    );
    ssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${dns}`,
    );
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  };
  makeCa('ca');
  makeCa('rogue-ca');
  issue('ca', 'server', 'server.global.nomad');
  issue('ca', 'client', 'client.global.nomad');
  issue('rogue-ca', 'rogue-server', 'server.global.nomad');
}

export function tlsConfig(dir: string, name: string, cert: string, ca = 'ca'): string {
  const path = join(dir, `${name}.hcl`);
  writeFileSync(
    path,
    `tls {
  rpc                    = true
  verify_server_hostname = true
  ca_file                = "${join(dir, `${ca}.pem`)}"
  cert_file              = "${join(dir, `${cert}.pem`)}"
  key_file               = "${join(dir, `${cert}.key`)}"
}
`,
  );
  return `-config=${path}`;
}

/** The `tls { … }` of `tlsConfig` as a config layer, for an agent started in memory. */
export function tlsLayer(dir: string, cert: string, ca = 'ca'): TlsConfig {
  return {
    rpc: true,
    verifyServerHostname: true,
    caFile: join(dir, `${ca}.pem`),
    certFile: join(dir, `${cert}.pem`),
    keyFile: join(dir, `${cert}.key`),
  };
}
