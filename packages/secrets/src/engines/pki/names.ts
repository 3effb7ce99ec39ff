import { isIP } from 'node:net';
import { InvalidRequestError } from '../../logical/errors.js';
import type { RoleRecord } from './role-store.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

function isHostname(name: string, allowWildcard: boolean): boolean {
  const labels = name.split('.');
  if (allowWildcard && labels[0] === '*') labels.shift();
  return name.length <= 253 && labels.length > 0 && labels.every((label) => LABEL.test(label));
}

function globMatches(glob: string, name: string): boolean {
  const regex = new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return regex.test(name);
}

/** Whether `role` lets a certificate carry the DNS name (or email) `name`, as established roles decide. */
export function isNameAllowed(role: RoleRecord, name: string): boolean {
  const isWildcard = name.startsWith('*.');
  if (isWildcard && !role.allow_wildcard_certificates) return false;
  const host = name.includes('@') ? (name.split('@')[1] ?? '') : name;
  if (role.enforce_hostnames && !name.includes('@') && !isHostname(name, role.allow_wildcard_certificates))
    return false;
  if (role.allow_any_name) return true;
  if (role.allow_localhost && host === 'localhost') return true;
  const lower = (isWildcard ? host.slice(2) : host).toLowerCase();
  return role.allowed_domains.some((domain) => {
    const d = domain.toLowerCase();
    if (role.allow_glob_domains && d.includes('*') && globMatches(d, host)) return true;
    if (role.allow_bare_domains && lower === d && !isWildcard) return true;
    if (role.allow_subdomains && (lower.endsWith(`.${d}`) || (isWildcard && lower === d))) return true;
    return false;
  });
}

export interface CheckedNames {
  dnsNames: string[];
  emails: string[];
  ipAddresses: string[];
  uris: string[];
}

/** The names of a certificate for `commonName` and the alternative names, each checked against `role`. */
export function checkedNames(
  role: RoleRecord,
  o: { commonName: string; altNames: string[]; ipSans: string[]; uriSans: string[]; excludeCnFromSans: boolean },
): CheckedNames {
  if (o.commonName === '' && role.require_cn)
    throw new InvalidRequestError(
      'the common_name field is required, or must be provided in a CSR with "use_csr_common_name" set to true, unless "require_cn" is set to false',
    );
  if (o.commonName !== '') {
    const validations = role.cn_validations;
    const asEmail = validations.includes('email') && EMAIL.test(o.commonName);
    const asHost = validations.includes('hostname') && !o.commonName.includes('@');
    if (!validations.includes('disabled') && !asEmail && !asHost)
      throw new InvalidRequestError(`common name ${o.commonName} not allowed by this role`);
    if (!validations.includes('disabled') && !isNameAllowed(role, o.commonName))
      throw new InvalidRequestError(`common name ${o.commonName} not allowed by this role`);
  }
  for (const name of o.altNames)
    if (!isNameAllowed(role, name))
      throw new InvalidRequestError(`subject alternate name ${name} not allowed by this role`);
  if (o.ipSans.length > 0 && !role.allow_ip_sans)
    throw new InvalidRequestError(
      `IP Subject Alternative Names are not allowed in this role, but was provided ${o.ipSans.join(', ')}`,
    );
  for (const ip of o.ipSans)
    if (isIP(ip) === 0) throw new InvalidRequestError(`the value "${ip}" is not a valid IP address`);
  for (const uri of o.uriSans)
    if (!role.allowed_uri_sans.some((glob) => globMatches(glob, uri)))
      throw new InvalidRequestError(
        `URI Subject Alternative Names are not allowed in this role, but were provided ${uri}`,
      );
  const all = o.excludeCnFromSans || o.commonName === '' ? o.altNames : [o.commonName, ...o.altNames];
  const emails = all.filter((n) => n.includes('@'));
  const dnsNames = all.filter((n) => !n.includes('@') && isIP(n) === 0 && isHostname(n, true));
  return {
    dnsNames: [...new Set(dnsNames)],
    emails: [...new Set(emails)],
    ipAddresses: [...new Set(o.ipSans)],
    uris: [...new Set(o.uriSans)],
  };
}
