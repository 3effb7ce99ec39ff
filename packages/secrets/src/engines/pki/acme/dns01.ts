import { createHash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { AcmeProblem } from './jws.js';

const LOOKUP_TIMEOUT_MS = 10_000;

/**
 * A resolver asking `server` (`host:port`, `config/acme` `dns_resolver`), or the system's resolvers
 * when it is empty, as established.
 */
export function resolverFor(server: string): Resolver {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (server !== '') resolver.setServers([server]);
  return resolver;
}

/**
 * Whether `_acme-challenge.<domain>` has a TXT record holding the base64url SHA-256 of the key
 * authorization (RFC 8555 8.4). `domain` is the authorization's, without a wildcard's `*.`.
 */
export async function validateDns01(domain: string, keyAuthorization: string, server: string): Promise<void> {
  const name = `_acme-challenge.${domain}`;
  let records: string[][];
  try {
    records = await resolverFor(server).resolveTxt(name);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      throw new AcmeProblem('incorrectResponse', `dns-01: no TXT records for ${name}`, 400);
    throw new AcmeProblem(
      'dns',
      `dns-01: failed to look up TXT records for ${name}${server ? ` via ${server}` : ''}: ${code ?? err}`,
      400,
    );
  }
  const expected = createHash('sha256').update(keyAuthorization).digest('base64url');
  // A TXT record may come in several strings (RFC 1035 3.3.14); they make one value.
  if (!records.some((chunks) => chunks.join('') === expected))
    throw new AcmeProblem('incorrectResponse', `dns-01: challenge failed against ${records.length} records`, 400);
}

/**
 * A `lookup` for sockets that resolves host names through `server` (A records, then AAAA), so
 * tls-alpn-01 connects where `dns_resolver` says; `undefined` (the system's lookup) when it is empty.
 */
export function lookupVia(server: string): LookupFunction | undefined {
  if (server === '') return undefined;
  const resolver = resolverFor(server);
  return (hostname, options, callback) => {
    const resolveAll = async (): Promise<LookupAddress[]> => {
      const v4 = await resolver.resolve4(hostname).catch((): string[] => []);
      if (v4.length > 0) return v4.map((address) => ({ address, family: 4 }));
      const v6 = await resolver.resolve6(hostname).catch((): string[] => []);
      return v6.map((address) => ({ address, family: 6 }));
    };
    resolveAll().then((addresses) => {
      const first = addresses[0];
      if (!first) {
        const err: NodeJS.ErrnoException = new Error(`${hostname} has no A or AAAA record at ${server}`);
        err.code = 'ENOTFOUND';
        callback(err, '', 0);
      } else if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
