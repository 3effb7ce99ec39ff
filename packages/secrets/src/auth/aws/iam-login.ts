import type { Clock } from '@ward/base';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { arnMatches, canonicalArn, parseArn } from './arn.js';
import type { AwsRole } from './aws-auth-store.js';
import { awsAuthStore } from './aws-auth-store.js';
import { stsUrlOf } from './aws-clients.js';
import { checkInstanceBounds, describeInstance } from './ec2-instance.js';
import { roleArnOfInstanceProfile } from './resolve-principal.js';
import { callerIdentityOf, checkHeaders, checkServerId, decodeStsRequest, signedRegionOf } from './sts-request.js';
import { configForAccount } from './sts-roles.js';

export interface IamLoginFields {
  role?: string;
  iam_http_request_method?: string;
  iam_request_url?: string;
  iam_request_body?: string;
  iam_request_headers?: unknown;
}

/** What an iam login established: the role, the alias name and the metadata the identity config selects from. */
export interface AuthenticatedLogin {
  roleName: string;
  role: AwsRole;
  aliasName: string;
  displayName: string;
  metadata: Record<string, string>;
  /** A role tag's narrower policies and TTL cap (ec2). */
  policies?: string[];
  maxTtl?: number;
}

/**
 * An iam login: the client's signed sts:GetCallerIdentity request is forwarded to STS, whose
 * answer names the signer; the signer (and, with `inferred_entity_type`, the instance it runs
 * as) must be bound by the role.
 */
export async function iamLogin(storage: Storage, fields: IamLoginFields, clock: Clock): Promise<AuthenticatedLogin> {
  const signed = decodeStsRequest(fields);
  const config = await awsAuthStore.client(storage);
  checkServerId(signed, config.iam_server_id_header_value);
  checkHeaders(signed, config.allowed_sts_header_values);
  const caller = await callerIdentityOf(signed, stsUrlOf(config, signedRegionOf(signed)));
  const arn = parseArn(caller.arn);
  const canonical = canonicalArn(arn);
  const roleName = (fields.role || arn.friendlyName).toLowerCase();
  const role = await awsAuthStore.role(storage, roleName);
  if (!role) throw new InvalidRequestError(`entry for role ${roleName} not found`);
  if (role.auth_type !== 'iam') throw new InvalidRequestError(`auth method iam not allowed for role ${roleName}`);
  const uniqueId = caller.userId.split(':')[0] ?? '';
  if (role.bound_iam_principal_arn.length > 0 && !principalBound(role, canonical, caller.arn, uniqueId))
    throw new PermissionDeniedError(
      `IAM Principal ${JSON.stringify(caller.arn)} does not belong to the role ${JSON.stringify(roleName)}`,
    );
  let inferredId = '';
  if (role.inferred_entity_type === 'ec2_instance') {
    if (arn.type !== 'assumed-role') throw new PermissionDeniedError('inferred entity is not an instance role session');
    inferredId = arn.sessionInfo;
    const lookups = await configForAccount(storage, config, caller.account, clock);
    const instance = await describeInstance(lookups, role.inferred_aws_region, inferredId);
    await checkInstanceBounds(
      role,
      { instanceId: inferredId, accountId: instance.ownerId, region: role.inferred_aws_region, ...instance },
      () => roleArnOfInstanceProfile(lookups, instance.instanceProfileArn),
    );
  }
  const identity = await awsAuthStore.identity(storage);
  const available: Record<string, string> = {
    account_id: caller.account,
    auth_type: 'iam',
    canonical_arn: canonical,
    client_arn: caller.arn,
    client_user_id: uniqueId,
    inferred_aws_region: role.inferred_entity_type ? role.inferred_aws_region : '',
    inferred_entity_id: inferredId,
    inferred_entity_type: role.inferred_entity_type,
  };
  const aliasOf = new Map([
    ['role_id', role.role_id],
    ['unique_id', uniqueId],
    ['full_arn', caller.arn],
    ['canonical_arn', canonical],
  ]);
  const metadata: Record<string, string> = { role: roleName, role_id: role.role_id };
  for (const name of identity.iam_metadata) metadata[name] = available[name] ?? '';
  return {
    roleName,
    role,
    aliasName: aliasOf.get(identity.iam_alias) ?? role.role_id,
    displayName: arn.friendlyName,
    metadata,
  };
}

function principalBound(role: AwsRole, canonical: string, clientArn: string, uniqueId: string): boolean {
  return role.bound_iam_principal_arn.some((bound, i) => {
    const id = role.bound_iam_principal_id[i];
    if (role.resolve_aws_unique_ids && id) return id === uniqueId;
    return arnMatches(bound, canonical) || arnMatches(bound, clientArn);
  });
}
