import { decodeJwt, errors } from 'jose';
import { InvalidRequestError } from '../../logical/errors.js';

/** Who a service account JWT says it is. */
export interface ServiceAccount {
  namespace: string;
  name: string;
  uid: string;
  /** Legacy (secret-based) tokens only. */
  secretName: string;
  claims: Record<string, unknown>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The service account a JWT names, unverified (TokenReview or the PEM keys verify it): the
 * projected token's `kubernetes.io` claim, or the legacy `kubernetes.io/serviceaccount/*` claims.
 */
export function serviceAccountOf(jwt: string): ServiceAccount {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(jwt);
  } catch (err) {
    if (err instanceof errors.JOSEError) throw new InvalidRequestError('failed to parse the JWT');
    throw err;
  }
  const projected = claims['kubernetes.io'] as
    | { namespace?: unknown; serviceaccount?: { name?: unknown; uid?: unknown } }
    | undefined;
  const account: ServiceAccount = projected
    ? {
        namespace: str(projected.namespace),
        name: str(projected.serviceaccount?.name),
        uid: str(projected.serviceaccount?.uid),
        secretName: '',
        claims,
      }
    : {
        namespace: str(claims['kubernetes.io/serviceaccount/namespace']),
        name: str(claims['kubernetes.io/serviceaccount/service-account.name']),
        uid: str(claims['kubernetes.io/serviceaccount/service-account.uid']),
        secretName: str(claims['kubernetes.io/serviceaccount/secret.name']),
        claims,
      };
  if (!account.namespace || !account.name || !account.uid)
    throw new InvalidRequestError('the JWT names no service account (namespace, name and uid)');
  return account;
}

/** `*` alone, or a glob with `*` anywhere, as the established role bounds match. */
export function isBound(list: readonly string[], value: string): boolean {
  return list.some((pattern) => {
    if (pattern === '*' || pattern === value) return true;
    if (!pattern.includes('*')) return false;
    const re = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${re.join('.*')}$`).test(value);
  });
}
