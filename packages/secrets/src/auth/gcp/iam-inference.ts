import type { Clock } from '@ward/base';
import type { GoogleApis } from '../../google/apis.js';
import { PermissionDeniedError } from '../../logical/errors.js';
import type { LoginGrant } from '../../logical/response.js';
import { tokenGrant } from '../common/index.js';
import { checkBoundAccount, groupAliases, lookUpAccount } from './gce-login.js';
import type { GcpConfig, IamRole } from './gcp-store.js';
import type { GoogleCerts } from './google-certs.js';
import { verifyInstanceToken } from './instance-token.js';

/**
 * An `iam` login with an instance identity token (`allow_gce_inference`, on by default as
 * established): the token is checked as for `gce` roles, and the instance's service account,
 * looked up in IAM, must be bound to the role (and in one of its projects). No instance checks.
 */
export async function iamLoginFromInstance(input: {
  jwt: string;
  roleName: string;
  role: IamRole;
  config: GcpConfig;
  apis: GoogleApis;
  certs: GoogleCerts;
  clock: Clock;
}): Promise<LoginGrant> {
  const { role, apis, roleName } = input;
  if (!role.allow_gce_inference)
    throw new PermissionDeniedError(`Got GCE token but IAM role "${roleName}" does not allow GCE inference`);
  const { emailOrId } = await verifyInstanceToken(
    input.jwt,
    roleName,
    input.config.api_endpoint,
    input.certs,
    input.clock,
  );
  const account = await lookUpAccount(apis, emailOrId);
  checkBoundAccount(role.bound_service_accounts, account);
  const project = account.projectId ?? '';
  if (role.bound_projects.length > 0 && !role.bound_projects.includes(project))
    throw new PermissionDeniedError(
      `service account "${account.email}" not in bound projects ${JSON.stringify(role.bound_projects)}`,
    );
  const email = account.email ?? emailOrId;
  return {
    aliasName: email,
    displayName: email,
    metadata: {
      service_account_email: email,
      service_account_id: account.uniqueId ?? '',
      project_id: project,
      role: roleName,
    },
    ...(role.add_group_aliases && project ? { groupAliases: await groupAliases(apis, project) } : {}),
    ...tokenGrant(role.token),
  };
}
