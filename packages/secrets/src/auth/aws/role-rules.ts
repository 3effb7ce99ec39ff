import { InvalidRequestError } from '../../logical/errors.js';
import type { AwsRole } from './aws-auth-store.js';

/** The ec2 bounds: they bind ec2 logins, and iam logins whose entity is inferred to be an instance. */
export const EC2_BOUNDS = [
  'bound_ami_id',
  'bound_account_id',
  'bound_region',
  'bound_vpc_id',
  'bound_subnet_id',
  'bound_iam_role_arn',
  'bound_iam_instance_profile_arn',
  'bound_ec2_instance_id',
] as const;

/** Checks a role as the established method does before storing it; throws with its texts. */
export function checkRole(role: AwsRole): void {
  const ec2Bound = EC2_BOUNDS.filter((name) => role[name].length > 0);
  if (role.auth_type === 'ec2') {
    if (role.bound_iam_principal_arn.length > 0)
      throw new InvalidRequestError('specified bound_iam_principal_arn but not using iam auth_type');
    if (role.inferred_entity_type)
      throw new InvalidRequestError('specified inferred_entity_type but not using iam auth_type');
    if (ec2Bound.length === 0 && !role.role_tag)
      throw new InvalidRequestError('at least one bound parameter should be specified on the role');
    return;
  }
  if (role.role_tag) throw new InvalidRequestError('tried to enable role_tag when not using ec2 auth method');
  if (role.allow_instance_migration)
    throw new InvalidRequestError('specified allow_instance_migration when not using ec2 auth type');
  if (role.inferred_entity_type && role.inferred_entity_type !== 'ec2_instance')
    throw new InvalidRequestError(`invalid inferred_entity_type: ${JSON.stringify(role.inferred_entity_type)}`);
  if (role.inferred_entity_type && !role.inferred_aws_region)
    throw new InvalidRequestError('specified inferred_entity_type but not inferred_aws_region');
  if (!role.inferred_entity_type)
    for (const name of ec2Bound)
      if (name !== 'bound_account_id')
        throw new InvalidRequestError(`specified ${name} but not specifying inferred_entity_type`);
  if (role.bound_iam_principal_arn.length === 0 && ec2Bound.length === 0)
    throw new InvalidRequestError('at least one bound parameter should be specified on the role');
  for (const arn of role.bound_iam_principal_arn)
    if (!/^arn:[^:]+:(iam|sts)::(\d{12}|\*):\S+$/.test(arn) && arn !== '*')
      throw new InvalidRequestError(`invalid bound_iam_principal_arn: ${JSON.stringify(arn)}`);
}
