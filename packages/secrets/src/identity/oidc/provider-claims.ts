import { createHash } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type { EntityRecord } from '../../core/identity/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { fillClaimsTemplate, TemplateError } from './claims-template.js';
import type { NamedKey } from './oidc-store.js';
import { type ProviderDeps, templateFacts } from './provider-deps.js';
import { providerStore } from './provider-store.js';

/** The digest of each signing algorithm, for `at_hash` and `c_hash` (EdDSA over Ed25519: SHA-512). */
const HASH_OF: ReadonlyMap<string, string> = new Map([
  ['RS256', 'sha256'],
  ['RS384', 'sha384'],
  ['RS512', 'sha512'],
  ['ES256', 'sha256'],
  ['ES384', 'sha384'],
  ['ES512', 'sha512'],
  ['EdDSA', 'sha512'],
]);

/** OpenID Connect Core 3.1.3.6: the left half of the value's digest, base64url. */
export function hashClaim(algorithm: string, value: string): string {
  const digest = createHash(HASH_OF.get(algorithm) ?? 'sha256')
    .update(value)
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/** A scope conflict (two requested scopes set the same claim): the request is refused. */
export class ScopeConflictError extends TemplateError {}

/**
 * The claims the scopes' templates give for `entity`, merged. A template that cannot be filled
 * for this entity is logged and left out, as established; two scopes setting one claim refuse the request.
 */
export async function scopeClaims(
  d: ProviderDeps,
  storage: Storage,
  entity: EntityRecord,
  scopes: readonly string[],
): Promise<string[]> {
  const facts = templateFacts(d, entity);
  const owner = new Map<string, string>();
  const filled: string[] = [];
  for (const name of scopes) {
    const scope = await providerStore.scope(storage, name);
    if (!scope || scope.template === '') continue;
    let text: string;
    try {
      text = fillClaimsTemplate(scope.template, facts);
      const parsed = JSON.parse(text) as object;
      for (const claim of Object.keys(parsed)) {
        const other = owner.get(claim);
        if (other !== undefined)
          throw new ScopeConflictError(
            `found scopes with conflicting top-level claim: claim "${claim}" in scopes "${name}", "${other}"`,
          );
        owner.set(claim, name);
      }
    } catch (err) {
      if (err instanceof ScopeConflictError) throw err;
      d.logger.warn('error populating OIDC scope template', { scope: name, error: (err as Error).message });
      continue;
    }
    filled.push(text);
  }
  return filled;
}

/** Signs `claims` with the key's current generation. */
export async function signWithKey(key: NamedKey, claims: Record<string, unknown>): Promise<string> {
  const signing = key.generations[0];
  if (!signing?.private) throw new InvalidRequestError('the key has no signing key material');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.algorithm, kid: signing.kid })
    .sign(await importJWK(signing.private, key.algorithm));
}
