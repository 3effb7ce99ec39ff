import { isIP } from 'node:net';
import { InvalidRequestError } from '../../logical/errors.js';
import type { RoleRecord } from './pki-store.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function isHostname(name: string): boolean {
  return name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

/** Whether `role` lets a certificate carry the DNS name `name`, as established roles decide (wildcards aside). */
function isAllowed(role: RoleRecord, name: string): boolean {
  if (name.includes('*')) return false;
  if (role.enforce_hostnames && !isHostname(name)) return false;
  if (role.allow_any_name) return true;
  if (role.allow_localhost && name === 'localhost') return true;
  const lower = name.toLowerCase();
  return role.allowed_domains.some((domain) => {
    const d = domain.toLowerCase();
    return (role.allow_bare_domains && lower === d) || (role.allow_subdomains && lower.endsWith(`.${d}`));
  });
}

/** The DNS and IP names of a certificate for `commonName` and the alternative names, each checked against `role`. */
export function checkedNames(
  role: RoleRecord,
  commonName: string,
  altNames: string[],
  ipSans: string[],
): { dnsNames: string[]; ipAddresses: string[] } {
  if (!isAllowed(role, commonName)) throw new InvalidRequestError(`common name ${commonName} not allowed by this role`);
  for (const name of altNames)
    if (!isAllowed(role, name))
      throw new InvalidRequestError(`subject alternate name ${name} not allowed by this role`);
  if (ipSans.length > 0 && !role.allow_ip_sans)
    throw new InvalidRequestError('IP Subject Alternative Names are not allowed in this role');
  for (const ip of ipSans)
    if (isIP(ip) === 0) throw new InvalidRequestError(`the value "${ip}" is not a valid IP address`);
  // The common name is also a DNS name when it is a host name, as established.
  const dnsNames = isHostname(commonName) ? [commonName, ...altNames] : altNames;
  return { dnsNames: [...new Set(dnsNames)], ipAddresses: [...new Set(ipSans)] };
}
