import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A test harness (exported as `@ward/base/testing`, never imported by production code): a
// throw-away PKI made with the openssl command line, as an operator would make one, for the
// tests of TLS listeners, client-certificate logins and the agent's mutual TLS on RPC.

const run = promisify(execFile);

/** A certificate and its key, as files in the PKI's folder and the certificate in PEM. */
export interface Issued {
  certFile: string;
  keyFile: string;
  pem: string;
}

export interface IssueOptions {
  /** In openssl's `-subj` form: `/CN=alice/OU=engineering`. */
  subject: string;
  /** openssl x509v3 configuration lines: `subjectAltName=DNS:localhost`, `extendedKeyUsage=serverAuth`. */
  extensions: string[];
  /** The CA that signs it: `ca` (the root; the default), `intermediate`, or one made by `ca()`. */
  issuer?: string;
}

export interface TestPki {
  /** The folder every file is in; `remove` deletes it. */
  dir: string;
  /** The root CA `ca`: its certificate file and PEM. */
  caFile: string;
  caPem: string;
  /** An intermediate CA (`intermediate`) signed by the root. */
  intermediatePem: string;
  /** A server certificate for `localhost` and 127.0.0.1, signed by the root. */
  server: Issued;
  /** Another self-signed root CA named `name` (another cluster's, a rogue's), to `issue` from by that name. */
  ca(name: string): Promise<Issued>;
  /** A certificate named `name` (its files are `<name>.pem`, `<name>.key`) signed by `o.issuer`. */
  issue(name: string, o: IssueOptions): Promise<Issued>;
  /** A client certificate signed by the root (or the intermediate); `extensions` are added to clientAuth's. */
  client(name: string, o: { subject: string; extensions?: string[]; byIntermediate?: boolean }): Promise<Issued>;
  /** Revokes `issued` (signed by the root) and answers the root's CRL in PEM (`openssl ca -revoke`, `-gencrl`). */
  revoke(issued: Issued): Promise<string>;
  remove(): Promise<void>;
}

const CA_EXTENSIONS = ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'];

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

/** Makes the root CA, the intermediate and the server certificate in a new temporary folder (P-256 keys). */
export async function makeTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-pki-'));
  const ssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  const files = async (name: string): Promise<Issued> => ({
    certFile: join(dir, `${name}.pem`),
    keyFile: join(dir, `${name}.key`),
    pem: await readFile(join(dir, `${name}.pem`), 'utf8'),
  });
  const key = (name: string) =>
    ssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`);
  const ca = async (name: string, subject = `/CN=${name}`) => {
    await key(name);
    const addext = CA_EXTENSIONS.flatMap((e) => ['-addext', e]);
    await ssl('req', '-x509', '-key', `${name}.key`, '-subj', subject, '-days', '30', ...addext, '-out', `${name}.pem`);
    return files(name);
  };
  const issue = async (name: string, o: IssueOptions) => {
    const issuer = o.issuer ?? 'ca';
    await key(name);
    await ssl('req', '-new', '-key', `${name}.key`, '-subj', o.subject, '-out', `${name}.csr`);
    await writeFile(join(dir, `${name}.ext`), `${o.extensions.join('\n')}\n`);
    const by = ['-CA', `${issuer}.pem`, '-CAkey', `${issuer}.key`, '-CAcreateserial'];
    await ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      ...by,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
    return files(name);
  };
  try {
    const root = await ca('ca', '/CN=Ward Test Root');
    const intermediate = await issue('intermediate', {
      subject: '/CN=Ward Test Intermediate',
      extensions: [...CA_EXTENSIONS, 'subjectKeyIdentifier=hash', 'authorityKeyIdentifier=keyid'],
    });
    const server = await issue('server', {
      subject: '/CN=localhost',
      extensions: ['subjectAltName=IP:127.0.0.1,DNS:localhost', 'extendedKeyUsage=serverAuth'],
    });
    await writeFile(join(dir, 'index.txt'), '');
    await writeFile(join(dir, 'crlnumber'), '01\n');
    await writeFile(join(dir, 'ca.cnf'), CA_CONFIG(dir));
    return {
      dir,
      caFile: root.certFile,
      caPem: root.pem,
      intermediatePem: intermediate.pem,
      server,
      ca: (name) => ca(name),
      issue,
      client: (name, o) =>
        issue(name, {
          subject: o.subject,
          issuer: o.byIntermediate ? 'intermediate' : 'ca',
          extensions: [
            'extendedKeyUsage=clientAuth',
            'subjectKeyIdentifier=hash',
            'authorityKeyIdentifier=keyid',
            ...(o.extensions ?? []),
          ],
        }),
      revoke: async (issued) => {
        await ssl('ca', '-config', 'ca.cnf', '-revoke', issued.certFile);
        await ssl('ca', '-config', 'ca.cnf', '-gencrl', '-out', 'crl.pem');
        return readFile(join(dir, 'crl.pem'), 'utf8');
      },
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
