import type { PeriodicTask } from '../../../framework/index.js';
import { getJson, putJson, type Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import type { AcmeAuthorization, AcmeChallenge, AcmeChallengeType, AcmeConfig } from './acme-store.js';
import { acmeStore } from './acme-store.js';
import { lookupVia, validateDns01 } from './dns01.js';
import { validateHttp01 } from './http01.js';
import { AcmeProblem } from './jws.js';
import { validateTlsAlpn01 } from './tls-alpn01.js';

/**
 * As established, a failed validation is tried again after 5 s, 10 s, … 30 s (the n-th retry waits
 * n × 5 s), and the challenge is invalid once the attempt after the sixth retry fails.
 */
const MAX_RETRIES = 5;
const RETRY_STEP_MS = 5_000;
/** How often the queue of validations waiting for a retry is looked at. */
const QUEUE_CHECK_MS = 1_000;
/** A validated authorization is good for 15 days, as established. */
const VALID_AUTHZ_MS = 15 * 24 * 3600_000;

/** A validation waiting for its next try (`acme/validations/<authz id>-<type>`), kept in storage. */
interface QueuedValidation {
  authz_id: string;
  type: AcmeChallengeType;
  /** The account key's thumbprint: the key authorization's second half. */
  thumbprint: string;
  retry_count: number;
  retry_after_ms: number;
}

const queueKey = (authzId: string, type: string) => `acme/validations/${authzId}-${type}`;

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

/**
 * One try of `challenge` (its authorization locked by the caller): valid, or, failed, `processing`
 * with the error and queued for a retry, or `invalid` with its authorization once the retries are
 * spent. Saves the authorization.
 */
export async function attemptValidation(
  d: PkiDeps,
  storage: Storage,
  authz: AcmeAuthorization,
  challenge: AcmeChallenge,
  thumbprint: string,
  retryCount: number,
): Promise<void> {
  const validate = validatorsFor(d).get(challenge.type);
  if (!validate) return;
  const config = await acmeStore.config(storage);
  const key = queueKey(authz.id, challenge.type);
  try {
    await validate(authz.identifier.value, challenge.token, `${challenge.token}.${thumbprint}`, config);
    challenge.status = 'valid';
    challenge.validated = new Date(d.clock.now()).toISOString();
    delete challenge.error;
    authz.status = 'valid';
    authz.expires = new Date(d.clock.now() + VALID_AUTHZ_MS).toISOString();
    await storage.delete(key);
  } catch (err) {
    if (!(err instanceof AcmeProblem)) throw err;
    challenge.error = { type: `urn:ietf:params:acme:error:${err.type}`, detail: err.message };
    if (retryCount > MAX_RETRIES) {
      challenge.status = 'invalid';
      authz.status = 'invalid';
      await storage.delete(key);
    } else {
      challenge.status = 'processing';
      const next: QueuedValidation = {
        authz_id: authz.id,
        type: challenge.type,
        thumbprint,
        retry_count: retryCount + 1,
        retry_after_ms: d.clock.now() + (retryCount + 1) * RETRY_STEP_MS,
      };
      await putJson(storage, key, next);
    }
  }
  await acmeStore.putAuthz(storage, authz);
}

/** Tries the queued validation `key` again if it is due; drops it when its challenge moved on. */
async function retryQueued(d: PkiDeps, storage: Storage, key: string): Promise<void> {
  const queued = await getJson<QueuedValidation>(storage, key);
  if (!queued || queued.retry_after_ms > d.clock.now()) return;
  await d.locks.run(`acme-authz/${queued.authz_id}`, async () => {
    const authz = await acmeStore.authz(storage, queued.authz_id);
    const challenge = authz?.challenges.find((c) => c.type === queued.type);
    if (!authz || !challenge || authz.status !== 'pending' || challenge.status !== 'processing') {
      await storage.delete(key);
      return;
    }
    await attemptValidation(d, storage, authz, challenge, queued.thumbprint, queued.retry_count);
  });
}

/**
 * The retries of failed validations, on the active server, from the queue in storage (so a restart
 * or a failover resumes them). An idle mount lists the queue once, then again only after a
 * validation failed here.
 */
export class ValidationQueue {
  #mayHaveWork = true;

  /** Notes that a validation was queued (the next check lists the queue). */
  queued(): void {
    this.#mayHaveWork = true;
  }

  task(d: PkiDeps, storage: Storage): PeriodicTask {
    return {
      name: 'pki acme validation retries',
      intervalMs: QUEUE_CHECK_MS,
      run: async () => {
        if (!this.#mayHaveWork) return;
        this.#mayHaveWork = false;
        const keys = await storage.list('acme/validations/');
        if (keys.length > 0) this.#mayHaveWork = true;
        for (const name of keys) await retryQueued(d, storage, `acme/validations/${name}`);
      },
    };
  }
}
