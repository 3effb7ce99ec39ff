import type { Random } from '@ward/base';
import { InternalError, InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { generatePassword, PolicyGenerationError } from './generator.js';
import { type PasswordPolicy, PolicyTextError, parsePasswordPolicy } from './policy-text.js';

/** Password length bounds of a stored policy (as established). */
const MIN_LENGTH = 4;
const MAX_LENGTH = 100;
/** Passwords generated from a new policy before it is saved, to refuse impossible rules. */
const TRIAL_PASSWORDS = 10;

interface StoredPolicy {
  policy: string;
}

/** Where one namespace's password policies are stored in the barrier. */
export function passwordPolicyPrefix(namespaceId: string): string {
  return namespaceId === 'root' ? 'sys/password_policy/' : `namespaces/${namespaceId}/password_policy/`;
}

/**
 * The named password policies of one namespace (`sys/policies/password/*`). Stateless: every
 * call reads the namespace's storage, so a policy changed by one request is seen by the next.
 */
export class PasswordPolicyStore {
  constructor(
    private readonly storage: Storage,
    private readonly random: Random,
  ) {}

  /** Validates `text` (parses, length 4..100, can produce passwords) and stores it under `name`. */
  async put(name: string, text: string): Promise<void> {
    const policy = await parseOrRefuse(text);
    if (policy.length < MIN_LENGTH || policy.length > MAX_LENGTH) {
      throw new InvalidRequestError(`passwords must be between ${MIN_LENGTH} and ${MAX_LENGTH} characters`);
    }
    let failures = 0;
    for (let i = 0; i < TRIAL_PASSWORDS; i++) {
      try {
        generatePassword(policy, this.random);
      } catch (err) {
        if (!(err instanceof PolicyGenerationError)) throw err;
        failures++;
      }
    }
    if (failures === TRIAL_PASSWORDS) {
      throw new InvalidRequestError('unable to generate password from provided policy: are the rules impossible?');
    }
    if (failures > 0) {
      throw new InvalidRequestError(
        `failed to generate passwords ${failures} times out of ${TRIAL_PASSWORDS} attempts - is the policy too restrictive?`,
      );
    }
    await putJson(this.storage, name, { policy: text } satisfies StoredPolicy);
  }

  /** The policy text as stored, `undefined` when there is none by that name. */
  async get(name: string): Promise<string | undefined> {
    return (await getJson<StoredPolicy>(this.storage, name))?.policy;
  }

  delete(name: string): Promise<void> {
    return this.storage.delete(name);
  }

  list(): Promise<string[]> {
    return this.storage.list('');
  }

  /** A fresh password from the named policy; `NotFoundError` when it does not exist. */
  async generate(name: string): Promise<string> {
    const text = await this.get(name);
    if (text === undefined) throw new NotFoundError('policy does not exist');
    const policy = await parseOrRefuse(text);
    try {
      return generatePassword(policy, this.random);
    } catch (err) {
      if (err instanceof PolicyGenerationError) {
        throw new InternalError(`failed to generate password from policy: ${err.message}`);
      }
      throw err;
    }
  }
}

async function parseOrRefuse(text: string): Promise<PasswordPolicy> {
  try {
    return await parsePasswordPolicy(text);
  } catch (err) {
    if (err instanceof PolicyTextError) throw new InvalidRequestError(`invalid password policy: ${err.message}`);
    throw err;
  }
}
