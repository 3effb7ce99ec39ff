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

/** An order's DNS identifier, read: its value as asked (`*.example.com`) and the name to validate. */
export interface ParsedIdentifier {
  value: string;
  domain: string;
  wildcard: boolean;
}

/**
 * A DNS identifier of a new order (RFC 8555 7.1.3): a host name, or a wildcard `*.` before one
 * (RFC 8555 7.1.4), which only dns-01 can validate.
 */
export function parseIdentifier(identifier: { type?: unknown; value?: unknown }): ParsedIdentifier {
  if (identifier.type !== 'dns')
    throw new AcmeProblem('unsupportedIdentifier', 'only dns identifiers are supported here');
  const value = typeof identifier.value === 'string' ? identifier.value.toLowerCase() : '';
  if (value === '') throw new AcmeProblem('malformed', "value argument for value in 'identifiers' can not be blank");
  const wildcard = value.startsWith('*.');
  const domain = wildcard ? value.slice(2) : value;
  if (domain.length > 253 || !domain.split('.').every((l) => LABEL.test(l)))
    throw new AcmeProblem('rejectedIdentifier', `identifier ${value} is not a valid DNS name`);
  return { value, domain, wildcard };
}

/** A pending authorization for `identifier`: http-01, dns-01 and tls-alpn-01, or dns-01 alone for a wildcard. */
export function newAuthorization(
  d: PkiDeps,
  accountId: string,
  identifier: ParsedIdentifier,
  expires: string,
): AcmeAuthorization {
  const types: AcmeChallengeType[] = identifier.wildcard ? ['dns-01'] : ['http-01', 'dns-01', 'tls-alpn-01'];
  return {
    id: randomUuid(d.random),
    account_id: accountId,
    identifier: { type: 'dns', value: identifier.domain },
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
    ['http-01', (domain, token, keyAuthorization) => validateHttp01(domain, token, keyAuthorization)],
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
