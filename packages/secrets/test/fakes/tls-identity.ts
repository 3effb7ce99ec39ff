import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent } from 'undici';

const run = promisify(execFile);

/** A self-signed server certificate (openssl) for a fake cloud API served over real TLS. */
export interface TlsIdentity {
  key: string;
  cert: string;
  /**
   * An undici dispatcher that trusts only this certificate and resolves every name to 127.0.0.1,
   * so a client building `https://<org>.okta.test/…` reaches the fake with the name checked.
   */
  agent(): Agent;
}

export async function makeTlsIdentity(dnsNames: string[]): Promise<TlsIdentity> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-fake-tls-'));
  try {
    const san = ['IP:127.0.0.1', ...dnsNames.map((n) => `DNS:${n}`)].join(',');
    await run(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2']
        .concat(['-subj', '/CN=fake-cloud', '-addext', `subjectAltName=${san}`])
        .concat(['-keyout', 'key.pem', '-out', 'cert.pem']),
      { cwd: dir },
    );
    const key = await readFile(join(dir, 'key.pem'), 'utf8');
    const cert = await readFile(join(dir, 'cert.pem'), 'utf8');
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all)
        (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address: '127.0.0.1', family: 4 },
        ]);
      else callback(null, '127.0.0.1', 4);
    };
    return { key, cert, agent: () => new Agent({ connect: { ca: cert, lookup } }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
