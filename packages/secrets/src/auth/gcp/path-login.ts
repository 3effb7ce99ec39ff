import type { Clock } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { gcpStore } from './gcp-store.js';
import { verifyServiceAccountJwt } from './service-account-jwt.js';

/** `login`: a role and a JWT signed by a service account bound to it. */
export function pathLogin(clock: Clock) {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'The role to log in with.' }),
      jwt: field.string({
        description: 'JWT signed by the service account (aud vault/<role>, exp within max_jwt_exp).',
      }),
    },
    operations: {
      update: {
        summary: 'Log in as a service account.',
        handler: async ({ storage, data }) => {
          if (!data.role) throw new InvalidRequestError('role is required');
          if (!data.jwt) throw new InvalidRequestError('jwt is required');
          const role = await gcpStore.role(storage, data.role);
          if (!role) throw new InvalidRequestError(`invalid role name "${data.role}"`);
          if (role.type !== 'iam') throw new InvalidRequestError('gce login is not built yet');
          const claims = await verifyServiceAccountJwt(data.jwt, {
            role: data.role,
            nowSeconds: Math.floor(clock.now() / 1000),
            maxExpSeconds: role.max_jwt_exp,
            apiEndpoint: (await gcpStore.config(storage)).api_endpoint,
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
      synopsis: 'Log in with a service account’s signed JWT.',
      description:
        'Needs no Ward token. The signature is checked against the keys Google publishes for the account ' +
        '(service_accounts/v1/metadata/x509/<email>). A JWT that fails a check gets 403.',
    },
  });
}
