import { X509Certificate } from 'node:crypto';
import { type Check, type CheckConfig, millis } from './check.js';
import { crlValidityPeriod, roleNoStoreFalse } from './checks-crl.js';
import { enableAutoTidy, tidyLastRun } from './checks-tidy.js';
import { DeniedError, type Finding, finding, type MountReader, type StatusName } from './result.js';

export type { CheckConfig };

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The issuers of the mount with their parsed certificates (a certificate that does not parse is left out). */
async function issuers(reader: MountReader): Promise<Map<string, X509Certificate>> {
  const found = new Map<string, X509Certificate>();
  for (const id of await reader.list('issuers')) {
    const pem = (await reader.read(`issuer/${id}`))?.certificate;
    if (typeof pem !== 'string') continue;
    try {
      found.set(id, new X509Certificate(pem));
    } catch {
      // not a certificate this check can judge
    }
  }
  return found;
}

const isRoot = (c: X509Certificate) => c.subject === c.issuer && c.verify(c.publicKey);

async function roles(reader: MountReader): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const name of await reader.list('roles')) {
    const role = await reader.read(`roles/${name}`);
    if (role) found.set(name, role);
  }
  return found;
}

const caValidityPeriod: Check = {
  name: 'ca_validity_period',
  defaults: {
    root_expiry_critical: '180d',
    intermediate_expiry_critical: '30d',
    root_expiry_warning: '365d',
    intermediate_expiry_warning: '60d',
    root_expiry_informational: '730d',
    intermediate_expiry_informational: '180d',
  },
  async run(reader, config, nowMs) {
    const results: Finding[] = [];
    for (const [id, cert] of await issuers(reader)) {
      const kind = isRoot(cert) ? 'root' : 'intermediate';
      const notAfter = cert.validToDate.getTime();
      let result = finding('ok', `/${reader.mount}/issuer/${id}`, `Issuer valid until ${day(notAfter)}: OK`);
      for (const level of ['critical', 'warning', 'informational'] as const) {
        const window = millis(config, `${kind}_expiry_${level}`);
        if (notAfter < nowMs + window) {
          result = finding(
            level,
            result.endpoint ?? '',
            `Issuer valid until ${day(notAfter)}, within the ${window / DAY_MS}-day rotation window for a ${kind} (ending ${day(nowMs + window)}): rotate it to new key material before it expires.`,
          );
          break;
        }
      }
      results.push(result);
    }
    return results;
  },
};

const rootIssuedLeaves: Check = {
  name: 'root_issued_leaves',
  defaults: { certs_to_fetch: 100 },
  async run(reader, config) {
    const roots = new Map([...(await issuers(reader))].filter(([, c]) => isRoot(c)));
    const warned = new Set<string>();
    const results: Finding[] = [];
    let fetched = 0;
    for (const serial of await reader.list('certs')) {
      if (fetched >= Number(config.certs_to_fetch) || warned.size === roots.size) break;
      const pem = (await reader.read(`cert/${serial}`))?.certificate;
      if (typeof pem !== 'string') continue;
      const leaf = new X509Certificate(pem);
      if (leaf.ca) continue;
      fetched += 1;
      for (const [id, root] of roots) {
        if (warned.has(id) || leaf.issuer !== root.subject || !leaf.verify(root.publicKey)) continue;
        warned.add(id);
        results.push(
          finding(
            'warning',
            `/${reader.mount}/issuer/${id}`,
            `Root issuer signed the leaf certificate ${serial} itself: issue leaves from an intermediate CA, so the root can be rotated by cross-signing intermediates, and tidy once these leaves expire.`,
          ),
        );
      }
    }
    if (results.length === 0 && roots.size > 0) {
      results.push(
        finding('ok', `/${reader.mount}/certs`, 'No leaf certificate of those read was signed by a root issuer.'),
      );
    }
    return results;
  },
};

function roleCheck(
  name: string,
  flagged: (role: Record<string, unknown>, domains: string[]) => string | undefined,
  okMessage: string,
): Check {
  return {
    name,
    defaults: {},
    async run(reader) {
      const found = await roles(reader);
      const results: Finding[] = [];
      for (const [role, entry] of found) {
        const domains = Array.isArray(entry.allowed_domains) ? entry.allowed_domains.map(String) : [];
        const message = flagged(entry, domains);
        if (message) results.push(finding('warning', `/${reader.mount}/roles/${role}`, message));
      }
      if (results.length === 0 && found.size > 0) results.push(finding('ok', `/${reader.mount}/roles`, okMessage));
      return results;
    },
  };
}

const roleAllowsLocalhost = roleCheck(
  'role_allows_localhost',
  (role, domains) =>
    role.allow_localhost === true && domains.length > 0
      ? `Role allows localhost besides its allowed_domains (${domains.join(', ')}), which is easy to overlook: set allow_localhost=false and list localhost in allowed_domains if it is meant.`
      : undefined,
  'No role allows localhost beside a list of allowed domains.',
);

const roleAllowsGlobWildcards = roleCheck(
  'role_allows_glob_wildcards',
  (role, domains) =>
    role.allow_wildcard_certificates === true &&
    role.allow_glob_domains === true &&
    domains.some((d) => d.includes('*'))
      ? `Role allows wildcard certificates and glob patterns in allowed_domains (${domains.join(', ')}) together, so a glob can match wildcards at any depth: turn one off, or split the role in two.`
      : undefined,
  'No role allows wildcard certificates together with glob domains.',
);

const tooManyCerts: Check = {
  name: 'too_many_certs',
  defaults: { count_critical: 250000, count_warning: 50000 },
  async run(reader, config) {
    const count = (await reader.list('certs')).length;
    const level: StatusName =
      count >= Number(config.count_critical) ? 'critical' : count >= Number(config.count_warning) ? 'warning' : 'ok';
    const message =
      level === 'ok'
        ? `The mount stores ${count} certificates: OK.`
        : `The mount stores ${count} certificates: use no_store=true on roles, shorter lifetimes and periodic tidy to keep its storage small.`;
    return [finding(level, `/${reader.mount}/certs`, message)];
  },
};

/** The checks Ward runs, in the established order (those whose endpoints Ward serves). */
export const CHECKS: readonly Check[] = [
  caValidityPeriod,
  crlValidityPeriod,
  rootIssuedLeaves,
  roleAllowsLocalhost,
  roleAllowsGlobWildcards,
  roleNoStoreFalse,
  enableAutoTidy,
  tidyLastRun,
  tooManyCerts,
];

/** Runs a check; a read the token may not make becomes the established insufficient_permissions finding. */
export async function runCheck(
  check: Check,
  reader: MountReader,
  config: CheckConfig,
  nowMs: number,
): Promise<Finding[]> {
  try {
    return await check.run(reader, config, nowMs);
  } catch (err) {
    if (!(err instanceof DeniedError)) throw err;
    return [
      finding('insufficient_permissions', err.path, 'This token may not read this endpoint, so the check cannot run.'),
    ];
  }
}
