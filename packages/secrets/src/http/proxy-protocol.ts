import type { Socket } from 'node:net';
import { isAddressInCidrs } from '../framework/index.js';

/** `proxy_protocol_behavior` and `proxy_protocol_authorized_addrs` of a listener. */
export interface ProxyProtocolPolicy {
  behavior: 'use_always' | 'allow_authorized' | 'deny_unauthorized';
  authorizedCidrs: readonly string[];
}

const V1_PREFIX = Buffer.from('PROXY ');
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** A v1 line is at most 107 bytes; a v2 header 16 bytes plus its length field. */
const V1_MAX = 107;
const HEADER_TIMEOUT_MS = 10_000;

/** What a connection's first bytes said: the source address a PROXY header gave (if any), and what follows it. */
export interface ProxyHeader {
  source?: string;
  rest: Buffer;
}

/**
 * Reads a PROXY protocol header (v1 text or v2 binary) off the start of `socket`, if there is
 * one; rejects on a malformed header or one that does not arrive in time.
 */
export function readProxyHeader(socket: Socket): Promise<ProxyHeader> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (result: ProxyHeader | Error) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(() => done(new Error('PROXY header timed out')), HEADER_TIMEOUT_MS);
    const onEnd = () => done(new Error('connection closed before the PROXY header'));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      try {
        const parsed = parseHeader(buffered);
        if (parsed) done(parsed);
      } catch (err) {
        done(err as Error);
      }
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
  });
}

/** The header at the start of `buf`; undefined while more bytes are needed to tell. */
function parseHeader(buf: Buffer): ProxyHeader | undefined {
  const startsLike = (sig: Buffer) =>
    buf.subarray(0, sig.length).equals(sig.subarray(0, Math.min(buf.length, sig.length)));
  if (startsLike(V1_PREFIX)) {
    if (buf.length < V1_PREFIX.length) return undefined;
    const end = buf.indexOf('\r\n');
    if (end === -1) {
      if (buf.length > V1_MAX) throw new Error('PROXY v1 header too long');
      return undefined;
    }
    const [, family, source] = buf.subarray(0, end).toString('latin1').split(' ');
    if (family !== 'TCP4' && family !== 'TCP6' && family !== 'UNKNOWN') throw new Error('malformed PROXY v1 header');
    return { source: family === 'UNKNOWN' ? undefined : source, rest: buf.subarray(end + 2) };
  }
  if (startsLike(V2_SIGNATURE)) {
    if (buf.length < 16) return undefined;
    const length = buf.readUInt16BE(14);
    if (buf.length < 16 + length) return undefined;
    const command = (buf[12] as number) & 0x0f;
    const family = (buf[13] as number) >> 4;
    const body = buf.subarray(16, 16 + length);
    let source: string | undefined;
    // LOCAL (health checks of the proxy itself) keeps the connection's own address.
    if (command === 1 && family === 1 && body.length >= 12) source = [...body.subarray(0, 4)].join('.');
    if (command === 1 && family === 2 && body.length >= 36) {
      source = (body.subarray(0, 16).toString('hex').match(/.{4}/g) ?? []).join(':');
    }
    return { source: source && normalizeV6(source), rest: buf.subarray(16 + length) };
  }
  return { rest: buf };
}

function normalizeV6(address: string): string {
  return address.includes(':') ? address.replace(/(^|:)0{1,3}(?=[0-9a-f])/g, '$1') : address;
}

/**
 * The client address a connection from `peer` is taken to have, as established: `use_always`
 * believes every header; `allow_authorized` believes only authorized peers' headers (others keep
 * their own address); `deny_unauthorized` refuses connections from other peers (`undefined`).
 */
export function proxiedAddress(policy: ProxyProtocolPolicy, peer: string, header: ProxyHeader): string | undefined {
  const isAuthorized = policy.behavior === 'use_always' || isAddressInCidrs(policy.authorizedCidrs, peer);
  if (!isAuthorized) return policy.behavior === 'deny_unauthorized' ? undefined : peer;
  return header.source ?? peer;
}
