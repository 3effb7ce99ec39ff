import type { Random } from '@ward/base';
import type { GoogleApis } from '../../google/apis.js';
import { gcpCloud } from './cloud.js';
import type { Bindings, SecretType, TokenKey } from './gcp-store.js';

const member = (email: string) => `serviceAccount:${email}`;

/**
 * Grants `email` its bindings and, for an access_token account, makes the key tokens are
 * minted with. On a failure, undoes what it did (best effort) before rethrowing.
 */
export async function bindAndKey(
  apis: GoogleApis,
  email: string,
  bindings: Bindings,
  secretType: SecretType,
): Promise<TokenKey | undefined> {
  let bound = false;
  try {
    await gcpCloud.editBindings(apis, member(email), bindings, 'add');
    bound = true;
    if (secretType !== 'access_token') return undefined;
    const { name, json } = await gcpCloud.createKey(apis, email);
    return { name, json };
  } catch (err) {
    if (bound) await gcpCloud.editBindings(apis, member(email), bindings, 'remove').catch(() => undefined);
    throw err;
  }
}

/** Removes what `bindAndKey` made: the bindings and the token key. */
export async function unbindAndDropKey(
  apis: GoogleApis,
  email: string,
  bindings: Bindings,
  tokenKey: TokenKey | undefined,
): Promise<void> {
  await gcpCloud.editBindings(apis, member(email), bindings, 'remove');
  if (tokenKey) await gcpCloud.deleteKey(apis, tokenKey.name);
}

/**
 * A roleset's new account id, `vault<name>-<unix seconds, base 36><4 random>`, within IAM's
 * 6–30 characters: two rotations in one second still get two names.
 */
export function rolesetAccountId(name: string, nowMs: number, random: Random): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 14);
  const suffix = [...random.bytes(4)].map((b) => (b % 36).toString(36)).join('');
  return `vault${stem}-${Math.floor(nowMs / 1000).toString(36)}${suffix}`;
}
