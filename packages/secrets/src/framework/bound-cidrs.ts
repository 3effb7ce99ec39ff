import { BlockList, isIP } from 'node:net';
import { InvalidRequestError } from '../logical/errors.js';

/**
 * Normalises CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`, or a bare address meaning a
 * single host), throwing an `InvalidRequestError` naming `field` on the first bad one.
 */
export function parseCidrs(values: readonly string[], field: string): string[] {
  return values.map((value) => {
    const text = value.trim();
    const [address = '', prefixText, extra] = text.split('/');
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    const isValidPrefix = prefixText === undefined || (/^\d+$/.test(prefixText) && prefix <= maxPrefix);
    if (family === 0 || extra !== undefined || !isValidPrefix) {
      throw new InvalidRequestError(`invalid CIDR block ${JSON.stringify(value)} in "${field}"`);
    }
    return `${address}/${prefix}`;
  });
}

/** Whether `remoteAddress` falls inside one of `cidrs` (already normalised); IPv4-mapped IPv6 counts as IPv4. */
export function isAddressInCidrs(cidrs: readonly string[], remoteAddress: string): boolean {
  const address =
    remoteAddress.toLowerCase().startsWith('::ffff:') && isIP(remoteAddress.slice(7)) === 4
      ? remoteAddress.slice(7)
      : remoteAddress;
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', prefix = ''] = cidr.split('/');
    const cidrFamily = isIP(network);
    if (cidrFamily !== family) continue;
    list.addSubnet(network, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether every block of `inner` lies inside some block of `outer` (both normalised): a
 * narrower block's network address falls in the wider one and its prefix is at least as long.
 */
export function areCidrsWithin(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((cidr) => {
    const [network = '', prefix = ''] = cidr.split('/');
    return outer.some((wide) => Number(wide.split('/')[1]) <= Number(prefix) && isAddressInCidrs([wide], network));
  });
}
