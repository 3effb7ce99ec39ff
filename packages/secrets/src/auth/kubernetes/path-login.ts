import type { Clock } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { verifyWithPems } from '../common/pem-keys.js';
import { k8sStore } from './k8s-store.js';
import { type LocalServiceAccount, withLocalAccount } from './local-account.js';
import { matchesSelector, namespaceLabels, parseSelector } from './namespace-selector.js';
import { isBound, serviceAccountOf } from './service-account.js';
import { reviewToken } from './token-review.js';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

/** `login`: a role and a service account JWT, checked locally (bounds, keys) and by the cluster's TokenReview. */
export function pathLogin(clock: Clock, local: LocalServiceAccount) {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'The role to log in with.' }),
      jwt: field.string({ description: 'The service account JWT.' }),
    },
    operations: {
      update: {
        summary: 'Log in as a service account.',
        handler: async ({ storage, data }) => {
          if (!data.role) throw new InvalidRequestError('missing role');
          if (!data.jwt) throw new InvalidRequestError('missing jwt');
          const stored = await k8sStore.config(storage);
          if (!stored) throw new InvalidRequestError('could not load backend configuration');
          const config = await withLocalAccount(stored, local);
          const role = await k8sStore.role(storage, data.role);
          if (!role) throw new InvalidRequestError(`invalid role name "${data.role}"`);
          const account = serviceAccountOf(data.jwt);
          if (!isBound(role.bound_service_account_names, account.name))
            throw new PermissionDeniedError(`service account name not authorized`);
          if (!isBound(role.bound_service_account_namespaces, account.namespace)) {
            const selector = parseSelector(role.bound_service_account_namespace_selector ?? '');
            const isSelected =
              selector !== undefined &&
              matchesSelector(selector, await namespaceLabels(config, account.namespace, data.jwt));
            if (!isSelected) throw new PermissionDeniedError('namespace not authorized');
          }
          checkClaims(account.claims, config, role.audience, Math.floor(clock.now() / 1000));
          if (config.pem_keys.length > 0) {
            try {
              await verifyWithPems(data.jwt, config.pem_keys, ALGORITHMS);
            } catch {
              throw PermissionDeniedError.denied();
            }
          }
          const reviewed = await reviewToken(config, data.jwt, role.audience ? [role.audience] : []);
          const expected = `system:serviceaccount:${account.namespace}:${account.name}`;
          if (reviewed.username !== expected || (reviewed.uid && reviewed.uid !== account.uid))
            throw new PermissionDeniedError('JWT names do not match the TokenReview result');
          const metadata: Record<string, string> = {
            service_account_name: account.name,
            service_account_namespace: account.namespace,
            service_account_uid: account.uid,
            service_account_secret_name: account.secretName,
            role: data.role.toLowerCase(),
          };
          return {
            login: {
              aliasName:
                role.alias_name_source === 'serviceaccount_name' ? `${account.namespace}/${account.name}` : account.uid,
              displayName: `${account.namespace}-${account.name}`,
              metadata,
              ...tokenGrant(role.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a service account JWT.',
      description:
        'Needs no token. Name and namespace must be bound by the role; the cluster’s TokenReview must authenticate ' +
        'the JWT (403 if not, 502 when the API server cannot be asked).',
    },
  });
}

function checkClaims(
  claims: Record<string, unknown>,
  config: { issuer: string; disable_iss_validation: boolean },
  audience: string,
  nowSeconds: number,
): void {
  if (typeof claims.exp === 'number' && nowSeconds > claims.exp) throw PermissionDeniedError.denied();
  if (!config.disable_iss_validation) {
    const issuer = config.issuer || 'kubernetes/serviceaccount';
    if (claims.iss !== issuer) throw new PermissionDeniedError('invalid issuer (iss) claim');
  }
  if (audience) {
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!aud.includes(audience)) throw new PermissionDeniedError('invalid audience (aud) claim');
  }
}
