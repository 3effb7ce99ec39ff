/** Where a gossip peer listens: one UDP and one TCP port, the same number. */
export interface Address {
  addr: string;
  port: number;
}

export function addressKey(a: Address): string {
  return a.addr.includes(':') ? `[${a.addr}]:${a.port}` : `${a.addr}:${a.port}`;
}

/**
 * How the memberlist talks to peers, so the protocol can run over real sockets
 * or over an in-memory network in unit tests (as hashicorp/memberlist does).
 */
export interface Transport {
  /** The address peers should use to reach this node. */
  readonly local: Address;
  /** Best-effort datagram (UDP). Never throws; a lost packet is the protocol's problem. */
  sendPacket(to: Address, data: Uint8Array): void;
  /** Called for every datagram received. Set once, before traffic starts. */
  onPacket(handler: (data: Uint8Array, from: Address) => void): void;
  /**
   * Reliable request/response (TCP): resolves with the peer's reply, rejects when the
   * peer is unreachable, does not answer within `timeoutMs`, or its handler fails.
   */
  request(to: Address, data: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** Answers incoming requests. Set once, before traffic starts. */
  onRequest(handler: (data: Uint8Array) => Promise<Uint8Array>): void;
  /** Stops listening; pending requests reject. */
  close(): Promise<void>;
}
