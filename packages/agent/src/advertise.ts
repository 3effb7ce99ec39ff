import { networkInterfaces } from 'node:os';

/** The IP peers should dial: the bind address, or for a wildcard bind the first private IPv4. */
export function advertiseAddress(bind: string): string {
  if (bind !== '0.0.0.0' && bind !== '::') return bind;
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}
