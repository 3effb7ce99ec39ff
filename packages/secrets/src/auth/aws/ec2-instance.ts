import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { PermissionDeniedError } from '../../logical/errors.js';
import { arnMatches } from './arn.js';
import type { AwsClientConfig, AwsRole } from './aws-auth-store.js';
import { ec2ClientOf, upstream } from './aws-clients.js';

/** What the bounds of a role are checked against, from the identity document and DescribeInstances. */
export interface InstanceFacts {
  instanceId: string;
  amiId: string;
  accountId: string;
  region: string;
  vpcId: string;
  subnetId: string;
  instanceProfileArn: string;
  tags: Map<string, string>;
}

/** The running instance `instanceId` of `region`, asked of EC2; 403 when it is not running, 502 when EC2 fails. */
export async function describeInstance(config: AwsClientConfig, region: string, instanceId: string) {
  const client = ec2ClientOf(config, region);
  try {
    const out = await client.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
    const reservation = out.Reservations?.[0];
    const instance = reservation?.Instances?.[0];
    if (!instance || instance.InstanceId !== instanceId)
      throw new PermissionDeniedError(`no instance ${instanceId} found in ${region}`);
    if (instance.State?.Name !== 'running')
      throw new PermissionDeniedError(`instance is not in running state (${instance.State?.Name ?? 'unknown'})`);
    return {
      ownerId: reservation?.OwnerId ?? '',
      amiId: instance.ImageId ?? '',
      vpcId: instance.VpcId ?? '',
      subnetId: instance.SubnetId ?? '',
      instanceProfileArn: instance.IamInstanceProfile?.Arn ?? '',
      tags: new Map((instance.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? ''])),
    };
  } catch (err) {
    if (err instanceof PermissionDeniedError) throw err;
    if ((err as { name?: string }).name === 'InvalidInstanceID.NotFound')
      throw new PermissionDeniedError(`no instance ${instanceId} found in ${region}`);
    throw upstream(`error fetching description for instance ID ${JSON.stringify(instanceId)}`, err);
  } finally {
    client.destroy();
  }
}

const isBound = (bound: string[], value: string) => bound.length === 0 || bound.includes(value);

/** Throws 403 naming the first bound of `role` the instance does not satisfy. */
export async function checkInstanceBounds(
  role: AwsRole,
  facts: InstanceFacts,
  instanceRoleArn: () => Promise<string>,
): Promise<void> {
  const checks: [string, string[], string][] = [
    ['bound_ami_id', role.bound_ami_id, facts.amiId],
    ['bound_account_id', role.bound_account_id, facts.accountId],
    ['bound_region', role.bound_region, facts.region],
    ['bound_vpc_id', role.bound_vpc_id, facts.vpcId],
    ['bound_subnet_id', role.bound_subnet_id, facts.subnetId],
    ['bound_ec2_instance_id', role.bound_ec2_instance_id, facts.instanceId],
  ];
  for (const [name, bound, value] of checks)
    if (!isBound(bound, value)) throw new PermissionDeniedError(`instance does not satisfy ${name} of the role`);
  if (
    role.bound_iam_instance_profile_arn.length > 0 &&
    !role.bound_iam_instance_profile_arn.some((b) => arnMatches(b, facts.instanceProfileArn))
  )
    throw new PermissionDeniedError('instance does not satisfy bound_iam_instance_profile_arn of the role');
  if (role.bound_iam_role_arn.length > 0) {
    const arn = await instanceRoleArn();
    if (!role.bound_iam_role_arn.some((b) => arnMatches(b, arn)))
      throw new PermissionDeniedError('instance does not satisfy bound_iam_role_arn of the role');
  }
}
