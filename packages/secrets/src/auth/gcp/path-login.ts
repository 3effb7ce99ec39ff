import type { Clock } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import type { GoogleClientCache } from '../../google/client-cache.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { gceLogin } from './gce-login.js';
import { endpointsOf, gcpStore } from './gcp-store.js';
import type { GoogleCerts } from './google-certs.js';
import { iamLoginFromInstance } from './iam-inference.js';
import { looksLikeInstanceToken } from './instance-token.js';
import { verifyServiceAccountJwt } from './service-account-jwt.js';

/** `login`: a role and a JWT, signed by a service account bound to it (iam) or by Google for an instance (gce). */
export function pathLogin(clock: Clock, clients: GoogleClientCache, certs: GoogleCerts) {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'The role to log in with.' }),
      jwt: field.string({
        description:
          'iam: JWT signed by the service account (aud vault/<role>, exp within max_jwt_exp). ' +
          'gce: the instance identity token (audience …vault/<role>, format=full).',
      }),
    },
    operations: {
      update: {
        summary: 'Log in as a service account or a Compute Engine instance.',
        handler: async ({ storage, data }) => {
          if (!data.role) throw new InvalidRequestError('role is required');
          if (!data.jwt) throw new InvalidRequestError('jwt is required');
          const role = await gcpStore.role(storage, data.role);
          if (!role) throw new InvalidRequestError(`invalid role name "${data.role}"`);
          const config = await gcpStore.config(storage);
          const apis = () => clients.apis(config.credentials, endpointsOf(config));
          if (role.type === 'gce')
            return {
              login: await gceLogin({ jwt: data.jwt, roleName: data.role, role, config, apis: apis(), certs, clock }),
            };
          if (looksLikeInstanceToken(data.jwt))
            return {
              login: await iamLoginFromInstance({
                jwt: data.jwt,
                roleName: data.role,
                role,
                config,
                apis: apis(),
                certs,
                clock,
              }),
            };
          const claims = await verifyServiceAccountJwt(data.jwt, {
            role: data.role,
            nowSeconds: Math.floor(clock.now() / 1000),
            maxExpSeconds: role.max_jwt_exp,
            apiEndpoint: config.api_endpoint,
            isBound: (email, project) =>
              (role.bound_service_accounts.includes('*') || role.bound_service_accounts.includes(email)) &&
              (role.bound_projects.length === 0 || role.bound_projects.includes(project)),
          });
          return {
            login: {
              aliasName: claims.email,
              displayName: claims.email,
              metadata: { service_account_email: claims.email, project_id: claims.projectId, role: data.role },
              ...tokenGrant(role.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a service account’s signed JWT or an instance identity token.',
      description:
        'Needs no Ward token. iam: the signature is checked against the keys Google publishes for the account ' +
        '(service_accounts/v1/metadata/x509/<email>). gce: against Google’s keys (oauth2/v3/certs), then the ' +
        'instance is looked up in Compute Engine and checked against the role. A JWT or instance that fails a ' +
        'check gets 403; Google unreachable or failing, 502.',
    },
  });
}
