import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// A throw-away PKI made with the openssl command line: a root CA, an intermediate, a server
// certificate for 127.0.0.1, client certificates with chosen names and extensions, and CRLs
// (`openssl ca -revoke`, `-gencrl`), for tests of TLS client-certificate logins.

export interface Issued {
  certFile: string;
  keyFile: string;
  pem: string;
}

export interface TestPki {
  dir: string;
  caFile: string;
  caPem: string;
  intermediatePem: string;
  server: Issued;
  /** A client certificate signed by the root (or the intermediate); `extensions` are openssl x509v3 lines. */
  client(name: string, o: { subject: string; extensions?: string[]; byIntermediate?: boolean }): Promise<Issued>;
  /** Revokes `issued` (signed by the root) and answers the root's CRL in PEM. */
  revoke(issued: Issued): Promise<string>;
  remove(): Promise<void>;
}

const CA_CONFIG = (dir: string) => `[ ca ]
default_ca = root
[ root ]
database = ${dir}/index.txt
crlnumber = ${dir}/crlnumber
certificate = ${dir}/ca.pem
private_key = ${dir}/ca.key
default_md = sha256
default_crl_days = 30
`;

export async function makeTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-pki-'));
  const ssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  const key = (name: string) =>
    ssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`);
  const sign = async (name: string, subject: string, issuer: string, extensions: string[]) => {
    await key(name);
    await ssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    await writeFile(join(dir, `${name}.ext`), `${extensions.join('\n')}\n`);
    await ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer}.pem`,
      '-CAkey',
      `${issuer}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
    return {
      certFile: join(dir, `${name}.pem`),
      keyFile: join(dir, `${name}.key`),
      pem: await readFile(join(dir, `${name}.pem`), 'utf8'),
    };
  };
  await key('ca');
  await ssl(
    'req',
    '-x509',
    '-key',
    'ca.key',
    '-subj',
    '/CN=Ward Test Root',
    '-days',
    '30',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    'ca.pem',
  );
  const caExt = [
    'basicConstraints=critical,CA:TRUE',
    'keyUsage=critical,keyCertSign,cRLSign',
    'subjectKeyIdentifier=hash',
    'authorityKeyIdentifier=keyid',
  ];
  const intermediate = await sign('intermediate', '/CN=Ward Test Intermediate', 'ca', caExt);
  const server = await sign('server', '/CN=localhost', 'ca', [
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    'extendedKeyUsage=serverAuth',
  ]);
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'crlnumber'), '01\n');
  await writeFile(join(dir, 'ca.cnf'), CA_CONFIG(dir));
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    caPem: await readFile(join(dir, 'ca.pem'), 'utf8'),
    intermediatePem: intermediate.pem,
    server,
    client: (name, o) =>
      sign(name, o.subject, o.byIntermediate ? 'intermediate' : 'ca', [
        'extendedKeyUsage=clientAuth',
        'subjectKeyIdentifier=hash',
        'authorityKeyIdentifier=keyid',
        ...(o.extensions ?? []),
      ]),
    revoke: async (issued) => {
      await ssl('ca', '-config', 'ca.cnf', '-revoke', issued.certFile);
      await ssl('ca', '-config', 'ca.cnf', '-gencrl', '-out', 'crl.pem');
      return readFile(join(dir, 'crl.pem'), 'utf8');
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
