import { AwsError, type AwsState, type Handler, removed } from './aws-fake-state.js';

/** IAM's actions in the fake: users, their groups, policies and access keys; roles and instance profiles. */
export function iamActions(s: AwsState): Map<string, Handler> {
  const { account, keys, users, roles, groups, profiles, newKey, userArn, user, group, createUser, userXml } = s;
  return new Map<string, Handler>([
    [
      'CreateUser',
      (f) => {
        const u = createUser(f.get('UserName') ?? '', f.get('Path') ?? '/');
        u.boundary = f.get('PermissionsBoundary') ?? '';
        for (let i = 1; f.get(`Tags.member.${i}.Key`) !== null; i++)
          u.tags.set(f.get(`Tags.member.${i}.Key`) ?? '', f.get(`Tags.member.${i}.Value`) ?? '');
        return { User: userXml(u) };
      },
    ],
    ['GetUser', (f, s) => ({ User: userXml(user(f.get('UserName') ?? s.principal.user ?? '')) })],
    [
      'DeleteUser',
      (f) => {
        const u = user(f.get('UserName'));
        if (u.groups.size || u.attached.size || u.inline.size || u.keys.size)
          throw new AwsError('DeleteConflict', 'Cannot delete entity, must remove subordinate entities first.', 409);
        users.delete(u.name);
        return {};
      },
    ],
    [
      'AddUserToGroup',
      (f) => {
        const g = f.get('GroupName') ?? '';
        if (!groups.has(g)) throw new AwsError('NoSuchEntity', `The group with name ${g} cannot be found.`, 404);
        user(f.get('UserName')).groups.add(g);
        return {};
      },
    ],
    ['RemoveUserFromGroup', (f) => removed(user(f.get('UserName')).groups, f.get('GroupName'))],
    [
      'ListGroupsForUser',
      (f) => ({
        Groups: [...user(f.get('UserName')).groups].map((g) => ({
          GroupName: g,
          Path: '/',
          GroupId: 'AGPA0',
          Arn: `arn:aws:iam::${account}:group/${g}`,
          CreateDate: new Date(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'AttachUserPolicy',
      (f) => {
        const arn = f.get('PolicyArn') ?? '';
        if (!/^arn:aws:iam::(aws|\d{12}):policy\//.test(arn))
          throw new AwsError('InvalidInput', `ARN ${arn} is not valid.`);
        user(f.get('UserName')).attached.add(arn);
        return {};
      },
    ],
    ['DetachUserPolicy', (f) => removed(user(f.get('UserName')).attached, f.get('PolicyArn'))],
    [
      'ListAttachedUserPolicies',
      (f) => ({
        AttachedPolicies: [...user(f.get('UserName')).attached].map((arn) => ({
          PolicyArn: arn,
          PolicyName: arn.split('/').pop(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'PutUserPolicy',
      (f) => {
        const doc = f.get('PolicyDocument') ?? '';
        try {
          JSON.parse(doc);
        } catch {
          throw new AwsError('MalformedPolicyDocument', 'Syntax errors in policy.');
        }
        user(f.get('UserName')).inline.set(f.get('PolicyName') ?? '', doc);
        return {};
      },
    ],
    ['DeleteUserPolicy', (f) => removed(user(f.get('UserName')).inline, f.get('PolicyName'))],
    ['ListUserPolicies', (f) => ({ PolicyNames: [...user(f.get('UserName')).inline.keys()], IsTruncated: false })],
    [
      'CreateAccessKey',
      (f, s) => {
        const u = user(f.get('UserName') ?? s.principal.user ?? '');
        const k = newKey({ arn: userArn(u), userId: u.userId, user: u.name });
        u.keys.add(k.accessKeyId);
        return {
          AccessKey: {
            UserName: u.name,
            AccessKeyId: k.accessKeyId,
            SecretAccessKey: k.secretAccessKey,
            Status: 'Active',
            CreateDate: new Date(),
          },
        };
      },
    ],
    [
      'DeleteAccessKey',
      (f, s) => {
        const u = user(f.get('UserName') ?? s.principal.user ?? '');
        const keyId = f.get('AccessKeyId') ?? '';
        if (!u.keys.delete(keyId))
          throw new AwsError('NoSuchEntity', `The Access Key with id ${keyId} cannot be found.`, 404);
        keys.delete(keyId);
        return {};
      },
    ],
    [
      'ListAccessKeys',
      (f) => ({
        AccessKeyMetadata: [...user(f.get('UserName')).keys].map((k) => ({
          UserName: f.get('UserName'),
          AccessKeyId: k,
          Status: 'Active',
        })),
        IsTruncated: false,
      }),
    ],
    ['ListGroupPolicies', (f) => ({ PolicyNames: [...group(f.get('GroupName')).inline.keys()], IsTruncated: false })],
    [
      'GetGroupPolicy',
      (f) => {
        const name = f.get('PolicyName') ?? '';
        const doc = group(f.get('GroupName')).inline.get(name);
        if (doc === undefined) throw new AwsError('NoSuchEntity', `The group policy ${name} cannot be found.`, 404);
        // IAM answers policy documents URL-encoded (RFC 3986).
        return { GroupName: f.get('GroupName'), PolicyName: name, PolicyDocument: encodeURIComponent(doc) };
      },
    ],
    [
      'ListAttachedGroupPolicies',
      (f) => ({
        AttachedPolicies: group(f.get('GroupName')).attached.map((arn) => ({
          PolicyArn: arn,
          PolicyName: arn.split('/').pop(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'GetRole',
      (f) => {
        const name = f.get('RoleName') ?? '';
        const r = roles.get(name);
        if (!r) throw new AwsError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
        return { Role: { Path: r.path, RoleName: name, RoleId: r.roleId, Arn: r.arn, CreateDate: new Date() } };
      },
    ],
    [
      'GetInstanceProfile',
      (f) => {
        const name = f.get('InstanceProfileName') ?? '';
        const roleName = profiles.get(name);
        const r = roles.get(roleName ?? '');
        if (!r) throw new AwsError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404);
        return {
          InstanceProfile: {
            Path: '/',
            InstanceProfileName: name,
            InstanceProfileId: 'AIPA0',
            CreateDate: new Date(),
            Arn: `arn:aws:iam::${account}:instance-profile/${name}`,
            Roles: [{ Path: r.path, RoleName: roleName, RoleId: r.roleId, Arn: r.arn, CreateDate: new Date() }],
          },
        };
      },
    ],
  ]);
}
