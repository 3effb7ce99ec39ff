import type { IncomingMessage } from 'node:http';
import { isAddressInCidrs } from '../framework/index.js';
import { type ClientCertDecoder, decodeForwardedCertificate } from './forwarded-client-cert.js';

/** `x_forwarded_for_*` of a listener. */
export interface ForwardedForPolicy {
  authorizedCidrs: readonly string[];
  hopSkips: number;
  rejectNotAuthorized: boolean;
  rejectNotPresent: boolean;
  /** `x_forwarded_for_client_cert_header`: an authorized peer passes the client's certificate in it. */
  clientCertHeader?: string;
  /** `x_forwarded_for_client_cert_header_decoders`, in order. */
  clientCertDecoders?: readonly ClientCertDecoder[];
}

/**
 * The client's address as the policy reads it (and, from an authorized peer that sent the
 * certificate header, the client's certificate as DER), or the 400 the request gets.
 */
export type ForwardedClient = { address: string; certificate?: Uint8Array } | { error: string };

/**
 * The established X-Forwarded-For handling: only a peer in `authorizedCidrs` is believed; its
 * header values (every header, comma-separated) form a chain, and the client is the link
 * `hopSkips` from the end. A missing header, an unauthorized peer and a chain too short are
 * refused as configured.
 */
export function forwardedClient(req: IncomingMessage, policy: ForwardedForPolicy, peer: string): ForwardedClient {
  const headers = req.headersDistinct['x-forwarded-for'];
  if (!headers || headers.length === 0) {
    return policy.rejectNotPresent
      ? { error: 'missing x-forwarded-for header and configured to reject when not present' }
      : { address: peer };
  }
  if (!isAddressInCidrs(policy.authorizedCidrs, peer)) {
    return policy.rejectNotAuthorized
      ? { error: 'client address not authorized for x-forwarded-for and configured to reject connection' }
      : { address: peer };
  }
  const chain = headers.flatMap((h) => h.split(',').map((v) => v.trim()));
  const index = chain.length - 1 - policy.hopSkips;
  if (index < 0) {
    return {
      error: `malformed x-forwarded-for configuration or request, hops to skip (${policy.hopSkips}) would skip before earliest chain link (chain length ${headers.length})`,
    };
  }
  const address = chain[index] as string;
  const header = policy.clientCertHeader && req.headers[policy.clientCertHeader.toLowerCase()];
  if (!header) return { address };
  const cert = decodeForwardedCertificate(
    Array.isArray(header) ? (header[0] ?? '') : header,
    policy.clientCertDecoders ?? [],
  );
  return 'error' in cert ? cert : { address, certificate: cert.der };
}
