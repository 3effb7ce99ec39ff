import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
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
