import { GetInstanceProfileCommand, GetRoleCommand, GetUserCommand } from '@aws-sdk/client-iam';
import type { Clock } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { parseArn } from './arn.js';
import type { AwsClientConfig } from './aws-auth-store.js';
import { iamClientOf, upstream } from './aws-clients.js';
import { configForAccount } from './sts-roles.js';

/**
 * The unique id (AIDA…, AROA…) of the user or role an ARN names, asked of IAM: a role bound by
 * id stops matching a principal deleted and recreated under the same name.
 */
export async function uniqueIdOf(config: AwsClientConfig, arn: string): Promise<string> {
  const parsed = parseArn(arn);
  const client = iamClientOf(config);
  try {
    if (parsed.type === 'user') {
      const out = await client.send(new GetUserCommand({ UserName: parsed.friendlyName }));
      return out.User?.UserId ?? '';
    }
    if (parsed.type === 'role') {
      const out = await client.send(new GetRoleCommand({ RoleName: parsed.friendlyName }));
      return out.Role?.RoleId ?? '';
    }
  } catch (err) {
    throw upstream(`unable to resolve ARN ${JSON.stringify(arn)} to internal ID`, err);
  } finally {
    client.destroy();
  }
  throw new InvalidRequestError(`unrecognized principal type: ${JSON.stringify(parsed.type)}`);
}

/** The unique ids of a role's bound ARNs; a glob (`*`) is matched by ARN at login and resolves to ''. */
export async function resolveRoleIds(
  storage: Storage,
  config: AwsClientConfig,
  arns: string[],
  clock: Clock,
): Promise<string[]> {
  const ids: string[] = [];
  for (const arn of arns) {
    if (arn.includes('*')) ids.push('');
    else ids.push(await uniqueIdOf(await configForAccount(storage, config, parseArn(arn).accountId, clock), arn));
  }
  return ids;
}

/** The ARN of the (first) role of an instance profile, for `bound_iam_role_arn`. */
export async function roleArnOfInstanceProfile(config: AwsClientConfig, profileArn: string): Promise<string> {
  if (!profileArn) return '';
  const client = iamClientOf(config);
  try {
    const name = parseArn(profileArn).friendlyName;
    const out = await client.send(new GetInstanceProfileCommand({ InstanceProfileName: name }));
    return out.InstanceProfile?.Roles?.[0]?.Arn ?? '';
  } catch (err) {
    throw upstream(`unable to read instance profile ${JSON.stringify(profileArn)}`, err);
  } finally {
    client.destroy();
  }
}
