import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'ldapts';

const run = promisify(execFile);

export const SUFFIX = 'dc=example,dc=org';
export const ADMIN_DN = `cn=admin,${SUFFIX}`;
export const ADMIN_PASSWORD = 'adminpass';
/** The account the engine binds as (a real entry: the config-only rootdn cannot rotate itself). */
export const ENGINE_DN = `cn=vault,ou=users,${SUFFIX}`;
export const ENGINE_PASSWORD = 'vaultpass';

/** Debian installs slapd in /usr/sbin, which an ordinary user's PATH may lack. */
const SLAPD = existsSync('/usr/sbin/slapd') ? '/usr/sbin/slapd' : 'slapd';

/** A throw-away OpenLDAP `slapd` on a free loopback port, its config and database in a temp dir. */
export interface Slapd {
  url: string;
  /** The slapd process (for CPU figures in the bench). */
  readonly pid: number;
  /** With `{ tls: true }`: an `ldaps://` URL, and the CA (PEM) that signed the server certificate (also for StartTLS). */
  ldapsUrl?: string;
  caPem?: string;
  /** With `{ tls: true, requireClientCertificate: true }`: a client certificate and key (PEM) the CA signed. */
  clientCertPem?: string;
  clientKeyPem?: string;
  /** Whether `password` binds as `dn` right now (the directory's own answer). */
  canBind(dn: string, password: string): Promise<boolean>;
  /** Whether an entry exists at `dn` (searched as the admin). */
  exists(dn: string): Promise<boolean>;
  /** Adds an `inetOrgPerson` under `ou=users` with `password`. */
  addUser(cn: string, password: string): Promise<string>;
  /**
   * Freezes slapd (SIGSTOP): connections are accepted by the kernel, requests wait unanswered
   * until `resume`. Resolves once every thread has stopped (on a loaded machine that takes a while).
   */
  pause(): Promise<void>;
  resume(): void;
  /** Stops slapd (every connection to it closes) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

interface ConfigOptions {
  memberOf?: boolean;
  nestedMemberOf?: boolean;
  anonymousRead?: boolean;
  /** Most entries one search answers (slapd's `sizelimit`, `olcSizeLimit`); paged searches are not capped in total. */
  sizeLimit?: number;
}

function config(dir: string, o: ConfigOptions = {}): string {
  const isMemberOf = o.memberOf === true;
  // dynlist (2.5+): memberOf computed at search time from groupOfNames, recursively (`*`) for nested groups.
  const nested = o.nestedMemberOf
    ? {
        schema: 'include /etc/ldap/schema/dyngroup.schema\n',
        overlay: 'overlay dynlist\ndynlist-attrset groupOfURLs memberURL member+memberOf@groupOfNames*\n',
      }
    : { schema: '', overlay: '' };
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
${nested.schema}modulepath /usr/lib/ldap
moduleload back_mdb
moduleload ppolicy
${isMemberOf ? 'moduleload memberof\n' : ''}${o.nestedMemberOf ? 'moduleload dynlist\n' : ''}pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
password-hash {SSHA}

database mdb
maxsize 104857600
suffix "${SUFFIX}"
rootdn "${ADMIN_DN}"
rootpw ${ADMIN_PASSWORD}
directory ${dir}/db
${o.sizeLimit ? `sizelimit size.soft=${o.sizeLimit} size.hard=${o.sizeLimit} size.prtotal=unlimited\n` : ''}index objectClass eq
index cn,uid eq

overlay ppolicy
ppolicy_hash_cleartext
${isMemberOf ? 'overlay memberof\n' : ''}${nested.overlay}
access to attrs=userPassword
  by self write
  by dn.exact="${ENGINE_DN}" write
  by anonymous auth
  by * none
access to *
  by dn.exact="${ENGINE_DN}" write
  by users read
  ${o.anonymousRead ? 'by anonymous read' : 'by * none'}
`;
}

const SEED = `dn: ${SUFFIX}
objectClass: dcObject
objectClass: organization
dc: example
o: Example

dn: ou=users,${SUFFIX}
objectClass: organizationalUnit
ou: users

dn: ${ENGINE_DN}
objectClass: inetOrgPerson
cn: vault
sn: vault
userPassword: ${ENGINE_PASSWORD}
`;

/** A CA and a server certificate for 127.0.0.1 made with openssl; the slapd.conf lines that use them. */
async function makeCertificates(dir: string): Promise<string> {
  const at = (name: string) => join(dir, name);
  const ca = ['-x509', '-days', '1', '-subj', '/CN=ward test CA'];
  await run('openssl', ['req', ...ca, '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem')]);
  await writeFile(at('ext.cnf'), 'subjectAltName = IP:127.0.0.1\n');
  await signedByCa(dir, 'server', '/CN=127.0.0.1', ['-extfile', at('ext.cnf')]);
  return `TLSCACertificateFile ${at('ca.pem')}\nTLSCertificateFile ${at('server.pem')}\nTLSCertificateKeyFile ${at('server.key')}\n`;
}

/** `<name>.key` and `<name>.pem`, a certificate for `subject` signed by the test CA of `dir`. */
async function signedByCa(dir: string, name: string, subject: string, extra: string[] = []): Promise<void> {
  const at = (file: string) => join(dir, file);
  const [key, csr, pem] = [at(`${name}.key`), at(`${name}.csr`), at(`${name}.pem`)];
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', key, '-out', csr]);
  const ca = ['-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '1'];
  await run('openssl', ['x509', '-req', '-in', csr, ...ca, ...extra, '-out', pem]);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Starts slapd (Debian `slapd` + `ldap-utils`, see system-packages.txt) and seeds the tree. */
/**
 * `memberOf`: the memberof overlay keeps each entry's `memberOf` (direct groups only);
 * `nestedMemberOf`: dynlist computes `memberOf` with nested groups; `anonymousRead`: anonymous searches may read entries;
 * `sizeLimit`: at most that many entries per search (the rootdn is exempt), any number through pages.
 */
export async function startSlapd(
  o: { tls?: boolean; requireClientCertificate?: boolean } & ConfigOptions = {},
): Promise<Slapd> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-slapd-'));
  await mkdir(join(dir, 'db'));
  let tls = o.tls ? await makeCertificates(dir) : '';
  if (o.tls && o.requireClientCertificate) {
    await signedByCa(dir, 'client', '/CN=ward engine');
    // Only TLS sessions are asked for one: the helpers below keep using plain ldap://.
    tls += 'TLSVerifyClient demand\n';
  }
  await writeFile(join(dir, 'slapd.conf'), tls + config(dir, o));
  const url = `ldap://127.0.0.1:${await freePort()}`;
  const ldapsUrl = o.tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined;
  const listen = ldapsUrl ? `${url}/ ${ldapsUrl}/` : `${url}/`;
  const launch = () => {
    const proc = spawn(SLAPD, ['-h', listen, '-f', join(dir, 'slapd.conf'), '-d', '0'], { stdio: 'ignore' });
    return { proc, exited: new Promise<void>((resolve) => proc.once('exit', () => resolve())) };
  };
  let child = launch();
  const halt = async () => {
    if (child.proc.exitCode === null) child.proc.kill('SIGCONT');
    if (child.proc.exitCode === null) child.proc.kill('SIGTERM');
    await child.exited;
  };
  const stop = async () => {
    await halt();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilBound(url);
    await writeFile(join(dir, 'seed.ldif'), SEED);
    await run('ldapadd', ['-x', '-H', url, '-D', ADMIN_DN, '-w', ADMIN_PASSWORD, '-f', join(dir, 'seed.ldif')]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    get pid() {
      return child.proc.pid ?? 0;
    },
    ...(ldapsUrl ? { ldapsUrl, caPem: await readFile(join(dir, 'ca.pem'), 'utf8') } : {}),
    ...(o.tls && o.requireClientCertificate
      ? {
          clientCertPem: await readFile(join(dir, 'client.pem'), 'utf8'),
          clientKeyPem: await readFile(join(dir, 'client.key'), 'utf8'),
        }
      : {}),
    canBind: (dn, password) => canBind(url, dn, password),
    exists: async (dn) => {
      const client = new Client({ url });
      try {
        await client.bind(ADMIN_DN, ADMIN_PASSWORD);
        await client.search(dn, { scope: 'base' });
        return true;
      } catch {
        return false;
      } finally {
        await client.unbind();
      }
    },
    addUser: async (cn, password) => {
      const dn = `cn=${cn},ou=users,${SUFFIX}`;
      const client = new Client({ url });
      try {
        await client.bind(ADMIN_DN, ADMIN_PASSWORD);
        await client.add(dn, { objectClass: 'inetOrgPerson', cn, sn: cn, userPassword: password });
      } finally {
        await client.unbind();
      }
      return dn;
    },
    pause: async () => {
      child.proc.kill('SIGSTOP');
      await allThreadsStopped(child.proc.pid ?? 0);
    },
    resume: () => child.proc.kill('SIGCONT'),
    restart: async () => {
      await halt();
      child = launch();
      await waitUntilBound(url);
    },
    stop,
  };
}

async function canBind(url: string, dn: string, password: string): Promise<boolean> {
  const client = new Client({ url, connectTimeout: 5000 });
  try {
    await client.bind(dn, password);
    return true;
  } catch {
    return false;
  } finally {
    await client.unbind();
  }
}

async function waitUntilBound(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await canBind(url, ADMIN_DN, ADMIN_PASSWORD)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`slapd did not answer at ${url}`);
}

/** Waits (up to 5 s) until every thread of `pid` is stopped (state `T` in /proc). */
async function allThreadsStopped(pid: number): Promise<void> {
  const isStopped = async () => {
    const tasks = await readdir(`/proc/${pid}/task`);
    const states = await Promise.all(
      tasks.map(async (t) => (await readFile(`/proc/${pid}/task/${t}/stat`, 'utf8')).split(') ')[1]?.[0]),
    );
    return states.every((state) => state === 'T' || state === 't');
  };
  for (let i = 0; i < 500 && !(await isStopped()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
