import { type Random, randomBase62 } from '@ward/base';
import { Attribute, Change } from 'ldapts';
import type { SystemView } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { LdapConfig } from './config-store.js';

/** Password length when the config sets neither `length` nor `password_policy`. */
export const DEFAULT_PASSWORD_LENGTH = 64;

/** A new password: from the named policy, else base62 of the configured length (64 by default). */
export async function newPassword(
  config: Pick<LdapConfig, 'password_policy' | 'length'>,
  random: Random,
  system: SystemView,
): Promise<string> {
  if (!config.password_policy) return randomBase62(random, config.length || DEFAULT_PASSWORD_LENGTH);
  try {
    return await system.generatePasswordFromPolicy(config.password_policy);
  } catch (err) {
    // The policy is named by the config, not by this request's path: a 400 saying which, not a 404.
    if (!(err instanceof NotFoundError)) throw err;
    throw new InvalidRequestError(
      `unable to generate password: password policy "${config.password_policy}" does not exist`,
    );
  }
}

/**
 * The modification that sets `password` on an entry of the config's schema: `userPassword` in
 * clear (the server hashes it); AD's `unicodePwd` as the quoted password in UTF-16LE bytes;
 * RACF's `racfPassword` (`racfPassPhrase` with `credential_type` `phrase`) with
 * `racfAttributes: noexpired`, so the new password is not expired at once.
 */
export function passwordChanges(config: Pick<LdapConfig, 'schema' | 'credential_type'>, password: string): Change[] {
  const replace = (type: string, values: string[] | Buffer[]) =>
    new Change({ operation: 'replace', modification: new Attribute({ type, values }) });
  switch (config.schema) {
    case 'ad':
      return [replace('unicodePwd', [Buffer.from(`"${password}"`, 'utf16le')])];
    case 'racf':
      return [
        replace(config.credential_type === 'phrase' ? 'racfPassPhrase' : 'racfPassword', [password]),
        replace('racfAttributes', ['noexpired']),
      ];
    default:
      return [replace('userPassword', [password])];
  }
}
