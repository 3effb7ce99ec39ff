import { BlockList, isIP } from 'node:net';
import { InvalidRequestError } from '../../logical/errors.js';

/** The CIDR blocks of a comma-separated list (`10.0.0.0/8,fd00::/8`); 400 naming a bad one. */
export function parseCidrList(list: string, field: string): BlockList {
  const blocks = new BlockList();
  for (const item of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = '', prefix = ''] = item.split('/');
    const family = isIP(address);
    const bits = Number(prefix);
    if (!family || prefix === '' || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) {
      throw new InvalidRequestError(`failed to validate ${field}: invalid CIDR "${item}"`);
    }
    blocks.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return blocks;
}

/** Whether `ip` is in the list. */
export function contains(blocks: BlockList, ip: string): boolean {
  return blocks.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
}

/** `ip` as given, when it is an IPv4 or IPv6 address; 400 otherwise. */
export function requireIp(ip: string): string {
  if (!ip) throw new InvalidRequestError('missing ip');
  if (!isIP(ip)) throw new InvalidRequestError(`invalid IP "${ip}"`);
  return ip;
}
