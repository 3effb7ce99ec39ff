import type { Clock, Random } from '@ward/base';
import { CodedError } from '@ward/base';
import { calculateJwkThumbprint, flattenedVerify, importJWK, type JWK } from 'jose';
import type { Storage } from '../../../logical/storage.js';
import { type AcmeAccount, acmeStore } from './acme-store.js';

/** An ACME problem (RFC 8555 6.7): its `type` URN suffix, text and HTTP status. */
export class AcmeProblem extends CodedError<'acme_problem'> {
  readonly code = 'acme_problem';
  constructor(
    readonly type: string,
    detail: string,
    readonly status = 400,
  ) {
    super(detail);
  }
}

const NONCE_TTL_MS = 15 * 60_000;
const ALGORITHMS = new Set(['RS256', 'ES256', 'ES384', 'ES512', 'EdDSA']);

/** The nonces handed out (RFC 8555 6.5), each good once and for 15 minutes; per backend, in memory. */
export class NonceStore {
  readonly #issued = new Map<string, number>();
  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}
  issue(): string {
    const now = this.clock.now();
    for (const [nonce, at] of this.#issued) if (now - at > NONCE_TTL_MS) this.#issued.delete(nonce);
    const nonce = Buffer.from(this.random.bytes(16)).toString('base64url');
    this.#issued.set(nonce, now);
    return nonce;
  }
  /** Whether `nonce` was handed out and not used yet; uses it up. */
  consume(nonce: string): boolean {
    const at = this.#issued.get(nonce);
    this.#issued.delete(nonce);
    return at !== undefined && this.clock.now() - at <= NONCE_TTL_MS;
  }
}

export interface VerifiedRequest {
  payload: Record<string, unknown> | undefined;
  /** Set when the request names its account by `kid`. */
  account?: AcmeAccount;
  /** Set when the request carries its key (`jwk`: new-account). */
  jwk?: JWK;
}

/**
 * Checks a flattened JWS (RFC 8555 6.2): algorithm, nonce, URL and signature, by `jwk` or by the
 * key of the account `kid` names, which must be an account of the directory `dir`.
 */
export async function verifyJws(
  storage: Storage,
  nonces: NonceStore,
  body: { protected?: string; payload?: string; signature?: string },
  url: string,
  dir: { base: string; prefix: string; config: { eab_policy: string } },
): Promise<VerifiedRequest> {
  if (!body.protected || body.payload === undefined || !body.signature)
    throw new AcmeProblem('malformed', 'the request is not a flattened JWS');
  let header: { alg?: string; nonce?: string; url?: string; jwk?: JWK; kid?: string };
  try {
    header = JSON.parse(Buffer.from(body.protected, 'base64url').toString());
  } catch {
    throw new AcmeProblem('malformed', 'the protected header is not JSON');
  }
  if (!header.alg || !ALGORITHMS.has(header.alg))
    throw new AcmeProblem('badSignatureAlgorithm', `unsupported algorithm ${header.alg}`);
  if (!header.nonce || !nonces.consume(header.nonce)) throw new AcmeProblem('badNonce', 'the nonce is unknown or used');
  if (header.url !== url)
    throw new AcmeProblem('unauthorized', `the JWS url ${header.url} is not the request's ${url}`, 401);
  if (Boolean(header.jwk) === Boolean(header.kid))
    throw new AcmeProblem('malformed', 'exactly one of jwk and kid must be given');
  let account: AcmeAccount | undefined;
  let jwk = header.jwk;
  if (header.kid) {
    const id = header.kid.split('/').pop() ?? '';
    account = await acmeStore.account(storage, id);
    if (!account || header.kid !== `${dir.base}/account/${id}`)
      throw new AcmeProblem('accountDoesNotExist', 'no such account', 400);
    // An account belongs to the directory it was made in (as established).
    if ((account.directory ?? 'acme/') !== dir.prefix)
      throw new AcmeProblem('malformed', 'account part of different ACME directory path');
    requireBindingIfAlways(dir, account);
    if (account.status !== 'valid') throw new AcmeProblem('unauthorized', `account in status: ${account.status}`, 401);
    jwk = account.jwk as JWK;
  }
  try {
    const key = await importJWK(jwk as JWK, header.alg);
    await flattenedVerify({ protected: body.protected, payload: body.payload, signature: body.signature }, key);
  } catch {
    throw new AcmeProblem('malformed', 'the JWS signature does not verify');
  }
  const text = Buffer.from(body.payload, 'base64url').toString();
  let payload: Record<string, unknown> | undefined;
  if (text !== '') {
    try {
      payload = JSON.parse(text);
    } catch {
      throw new AcmeProblem('malformed', 'the payload is not JSON');
    }
  }
  return { payload, account, ...(header.jwk ? { jwk: header.jwk } : {}) };
}

/** Under `eab_policy` `always-required`, as established, an account without a binding may do nothing. */
export function requireBindingIfAlways(dir: { config: { eab_policy: string } }, account: AcmeAccount): void {
  if (dir.config.eab_policy === 'always-required' && !account.eab_id)
    throw new AcmeProblem('externalAccountRequired', 'this account has no external account binding, which is required');
}

export function thumbprintOf(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(jwk, 'sha256');
}
