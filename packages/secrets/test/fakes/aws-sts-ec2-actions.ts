import { randomBytes } from 'node:crypto';
import { AwsError, type AwsState, type Handler } from './aws-fake-state.js';
import { listOf } from './aws-query-xml.js';

/** STS's actions in the fake: who signed, assumed roles, federation and session tokens. */
export function stsActions(s: AwsState): Map<string, Handler> {
  const { account, roles, newKey, roleSession, stsCreds, logPolicies } = s;
  return new Map<string, Handler>([
    ['GetCallerIdentity', (_f, s) => ({ Arn: s.principal.arn, UserId: s.principal.userId, Account: account })],
    [
      'AssumeRole',
      (f) => {
        logPolicies('AssumeRole', f);
        const arn = f.get('RoleArn') ?? '';
        const name = [...roles.entries()].find(([, r]) => r.arn === arn)?.[0];
        if (!name) throw new AwsError('AccessDenied', `Not authorized to perform sts:AssumeRole on ${arn}`, 403);
        const c = roleSession(name, f.get('RoleSessionName') ?? '', Number(f.get('DurationSeconds') ?? 3600));
        return { Credentials: stsCreds(c), AssumedRoleUser: { Arn: c.arn, AssumedRoleId: c.assumedRoleId } };
      },
    ],
    [
      'GetFederationToken',
      (f, s) => {
        logPolicies('GetFederationToken', f);
        const name = f.get('Name') ?? '';
        if (name.length < 2 || name.length > 32)
          throw new AwsError('ValidationError', 'Name must be 2 to 32 characters');
        const arn = `arn:aws:sts::${account}:federated-user/${name}`;
        const sessionToken = randomBytes(24).toString('base64');
        const k = newKey({ arn, userId: `${account}:${name}` }, sessionToken);
        void s;
        const expiration = new Date(Date.now() + Number(f.get('DurationSeconds') ?? 43200) * 1000);
        return {
          Credentials: stsCreds({ ...k, sessionToken, expiration }),
          FederatedUser: { Arn: arn, FederatedUserId: `${account}:${name}` },
        };
      },
    ],
    [
      'GetSessionToken',
      (f, s) => {
        const sessionToken = randomBytes(24).toString('base64');
        const k = newKey(s.principal, sessionToken);
        const expiration = new Date(Date.now() + Number(f.get('DurationSeconds') ?? 43200) * 1000);
        return { Credentials: stsCreds({ ...k, sessionToken, expiration }) };
      },
    ],
  ]);
}

/** EC2's DescribeInstances in the fake. */
export function ec2Actions(s: AwsState): Map<string, Handler> {
  const { account, instances } = s;
  return new Map<string, Handler>([
    [
      'DescribeInstances',
      (f) => {
        const wanted = listOf(f, 'InstanceId');
        const found = wanted.map((w) => instances.get(w)).filter((i) => i !== undefined);
        if (found.length < wanted.length)
          throw new AwsError('InvalidInstanceID.NotFound', `The instance IDs '${wanted.join(', ')}' do not exist`);
        return {
          reservationSet: found.map((i) => ({
            reservationId: 'r-0',
            ownerId: account,
            instancesSet: [
              {
                instanceId: i.instanceId,
                imageId: i.imageId,
                instanceState: { code: 16, name: i.state ?? 'running' },
                vpcId: i.vpcId,
                subnetId: i.subnetId,
                iamInstanceProfile: i.profileArn ? { arn: i.profileArn, id: 'AIPA0' } : undefined,
                tagSet: Object.entries(i.tags ?? {}).map(([key, value]) => ({ key, value })),
              },
            ],
          })),
        };
      },
    ],
  ]);
}
