import type { Address } from './transport.js';

/** Gossip-level state of a member; the API's status is derived from it (see `apiStatus`). */
export type MemberState = 'alive' | 'suspect' | 'dead' | 'left';

/** What every node knows about one member, and what push-pull exchanges. */
export interface MemberRecord extends Address {
  name: string;
  tags: Record<string, string>;
  incarnation: number;
  state: MemberState;
  /** A leave intent (force-leave) was received while the member was alive. */
  leaving: boolean;
  /** Lamport time of the last leave intent applied to this member. */
  statusLTime: number;
}

export type Message =
  | { t: 'ping'; seq: number; node: string; from: string }
  | { t: 'ping-req'; seq: number; node: string; addr: string; port: number; from: string }
  | { t: 'ack'; seq: number }
  | { t: 'nack'; seq: number }
  | { t: 'alive'; node: string; addr: string; port: number; tags: Record<string, string>; inc: number }
  | { t: 'suspect'; node: string; inc: number; from: string }
  | { t: 'dead'; node: string; inc: number; from: string }
  | { t: 'leave-intent'; node: string; ltime: number; prune: boolean };

/** TCP exchanges: full state sync (join and anti-entropy) and the fallback ping. */
export type StreamRequest =
  | { t: 'push-pull'; join: boolean; ltime: number; members: MemberRecord[] }
  | { t: 'ping'; node: string };

export type StreamReply = { t: 'push-pull'; ltime: number; members: MemberRecord[] } | { t: 'ack' };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON on the wire: small, debuggable, and the state here is tiny. */
export function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Decodes a payload, or returns undefined for garbage (a stray datagram must not crash the agent). */
export function decode<T>(data: Uint8Array): T | undefined {
  try {
    return JSON.parse(decoder.decode(data)) as T;
  } catch {
    return undefined;
  }
}
