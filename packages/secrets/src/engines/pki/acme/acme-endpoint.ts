import type { Storage } from '../../../logical/storage.js';
import type { AcmeDirectory } from './acme-directory.js';
import type { Reply } from './acme-reply.js';
import { AcmeProblem, type VerifiedRequest } from './jws.js';

/** What a JWS-signed ACME request hands its endpoint. */
export interface AcmeCall {
  storage: Storage;
  dir: AcmeDirectory;
  jws: VerifiedRequest;
  /** The endpoint's own path captures (`order_id`, …). */
  ids: Record<string, string>;
}

/** An ACME endpoint below every directory: `new-order`, `order/:order_id`, … (POST, JWS-signed). */
export interface AcmeEndpoint {
  pattern: string;
  captures: string[];
  handle(call: AcmeCall): Promise<Reply>;
}

/** The account a request names by `kid` (every endpoint but new-account and revoke-cert needs one). */
export function needAccount(jws: VerifiedRequest) {
  if (!jws.account) throw new AcmeProblem('malformed', 'this request must name its account by kid');
  return jws.account;
}
