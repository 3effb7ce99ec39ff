import { isIP } from 'node:net';
import { randomUuid } from '@ward/base';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { type AcmeAuthorization, type AcmeChallenge, type AcmeChallengeType, acmeStore } from './acme-store.js';
import { attemptValidation } from './acme-validation.js';
import { AcmeProblem, thumbprintOf } from './jws.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An order's identifier, read: its value as asked (`*.example.com`) and the name to validate. */
export interface ParsedIdentifier {
  type: 'dns' | 'ip';
  value: string;
  domain: string;
  wildcard: boolean;
}

/** An IP address in one spelling (IPv6 compressed and lower-case), for comparing CSRs with orders. */
export function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
}

/**
 * An identifier of a new order: a DNS name (RFC 8555 7.1.3), or a wildcard `*.` before one
 * (RFC 8555 7.1.4), which only dns-01 can validate, or an IP address (RFC 8738), which only
 * http-01 can, as established.
 */
export function parseIdentifier(identifier: { type?: unknown; value?: unknown }): ParsedIdentifier {
  const value = typeof identifier.value === 'string' ? identifier.value.toLowerCase() : '';
  if (value === '') throw new AcmeProblem('malformed', "value argument for value in 'identifiers' can not be blank");
  if (identifier.type === 'ip') {
    if (isIP(value) === 0)
      throw new AcmeProblem('malformed', `value argument (${value}) failed validation: failed parsing as IP`);
    return { type: 'ip', value: canonicalIp(value), domain: canonicalIp(value), wildcard: false };
  }
  if (identifier.type !== 'dns')
    throw new AcmeProblem('unsupportedIdentifier', 'only dns and ip identifiers are supported here');
  const wildcard = value.startsWith('*.');
  const domain = wildcard ? value.slice(2) : value;
  if (isIP(domain) !== 0)
    throw new AcmeProblem('malformed', `value argument (${value}) failed validation: DNS identifier is an IP address`);
  if (domain.length > 253 || !domain.split('.').every((l) => LABEL.test(l)))
    throw new AcmeProblem('rejectedIdentifier', `identifier ${value} is not a valid DNS name`);
  return { type: 'dns', value, domain, wildcard };
}

/**
 * A pending authorization for `identifier`: http-01, dns-01 and tls-alpn-01; dns-01 alone for a
 * wildcard, http-01 alone for an IP address.
 */
export function newAuthorization(
  d: PkiDeps,
  accountId: string,
  identifier: ParsedIdentifier,
  expires: string,
): AcmeAuthorization {
  const types: AcmeChallengeType[] = identifier.wildcard
    ? ['dns-01']
    : identifier.type === 'ip'
      ? ['http-01']
      : ['http-01', 'dns-01', 'tls-alpn-01'];
  return {
    id: randomUuid(d.random),
    account_id: accountId,
    identifier: { type: identifier.type, value: identifier.domain },
    status: 'pending',
    expires,
    challenges: types.map((type) => ({
      type,
      token: Buffer.from(d.random.bytes(32)).toString('base64url'),
      status: 'pending',
    })),
    ...(identifier.wildcard ? { wildcard: true } : {}),
  };
}

/** The authorization's challenge of `type`, or a 404 problem when it offers none. */
export function challengeOf(authz: AcmeAuthorization, type: string): AcmeChallenge {
  const challenge = authz.challenges.find((c) => c.type === type);
  if (!challenge) throw new AcmeProblem('malformed', 'no such challenge', 404);
  return challenge;
}

/**
 * Starts validating the authorization's challenge of `type` (RFC 8555 7.5.1): a first try now;
 * a failed one leaves it `processing`, retried later by the validation queue. Only one challenge of
 * an authorization may be started, as established. Answers the challenge as it is then.
 */
export async function runChallenge(
  d: PkiDeps,
  storage: Storage,
  authzId: string,
  accountId: string,
  type: string,
  jwk: Record<string, unknown>,
): Promise<{ authz: AcmeAuthorization; challenge: AcmeChallenge }> {
  return d.locks.run(`acme-authz/${authzId}`, async () => {
    const authz = await acmeStore.authz(storage, authzId);
    if (!authz || authz.account_id !== accountId) throw new AcmeProblem('malformed', 'no such challenge', 404);
    const challenge = challengeOf(authz, type);
    if (challenge.status !== 'pending' || authz.status !== 'pending') return { authz, challenge };
    const started = authz.challenges.find((c) => c.type !== challenge.type && c.status !== 'pending');
    if (started)
      throw new AcmeProblem(
        'malformed',
        `only a single challenge within an authorization can be accepted (${started.type}) in status ${started.status}`,
      );
    await attemptValidation(d, storage, authz, challenge, await thumbprintOf(jwk), 0);
    return { authz, challenge };
  });
}
