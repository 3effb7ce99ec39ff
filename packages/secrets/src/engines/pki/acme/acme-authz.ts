import { isIP } from 'node:net';
import { randomUuid } from '@ward/base';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import {
  type AcmeAuthorization,
  type AcmeChallenge,
  type AcmeChallengeType,
  type AcmeConfig,
  acmeStore,
} from './acme-store.js';
import { lookupVia, validateDns01 } from './dns01.js';
import { validateHttp01 } from './http01.js';
import { AcmeProblem, thumbprintOf } from './jws.js';
import { validateTlsAlpn01 } from './tls-alpn01.js';

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

type Validator = (domain: string, token: string, keyAuthorization: string, config: AcmeConfig) => Promise<void>;

function validatorsFor(d: PkiDeps) {
  return new Map<AcmeChallengeType, Validator>([
    [
      'http-01',
      (domain, token, keyAuthorization, config) =>
        validateHttp01(domain, token, keyAuthorization, lookupVia(config.dns_resolver)),
    ],
    [
      'dns-01',
      (domain, _token, keyAuthorization, config) => validateDns01(domain, keyAuthorization, config.dns_resolver),
    ],
    [
      'tls-alpn-01',
      (domain, _token, keyAuthorization, config) =>
        validateTlsAlpn01(domain, keyAuthorization, d.acmeTlsAlpnPort, lookupVia(config.dns_resolver)),
    ],
  ]);
}

/** The authorization's challenge of `type`, or a 404 problem when it offers none. */
export function challengeOf(authz: AcmeAuthorization, type: string): AcmeChallenge {
  const challenge = authz.challenges.find((c) => c.type === type);
  if (!challenge) throw new AcmeProblem('malformed', 'no such challenge', 404);
  return challenge;
}

/**
 * Validates the authorization's challenge of `type` now; answers the challenge as it ends up. A
 * failed validation makes the challenge and its authorization invalid (RFC 8555 7.1.6).
 */
export async function runChallenge(
  d: PkiDeps,
  storage: Storage,
  authz: AcmeAuthorization,
  type: string,
  jwk: Record<string, unknown>,
): Promise<AcmeChallenge> {
  const challenge = challengeOf(authz, type);
  const validate = validatorsFor(d).get(challenge.type);
  if (challenge.status !== 'pending' || authz.status !== 'pending' || !validate) return challenge;
  const config = await acmeStore.config(storage);
  try {
    const keyAuthorization = `${challenge.token}.${await thumbprintOf(jwk)}`;
    await validate(authz.identifier.value, challenge.token, keyAuthorization, config);
    challenge.status = 'valid';
    challenge.validated = new Date(d.clock.now()).toISOString();
    authz.status = 'valid';
  } catch (err) {
    if (!(err instanceof AcmeProblem)) throw err;
    challenge.status = 'invalid';
    challenge.error = { type: `urn:ietf:params:acme:error:${err.type}`, detail: err.message };
    authz.status = 'invalid';
  }
  await acmeStore.putAuthz(storage, authz);
  return challenge;
}
