import {
  AddUserToGroupCommand,
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreateUserCommand,
  DeleteAccessKeyCommand,
  DeleteUserCommand,
  DeleteUserPolicyCommand,
  DetachUserPolicyCommand,
  type IAMClient,
  ListAccessKeysCommand,
  ListAttachedUserPoliciesCommand,
  ListGroupsForUserCommand,
  ListUserPoliciesCommand,
  PutUserPolicyCommand,
  RemoveUserFromGroupCommand,
} from '@aws-sdk/client-iam';
import { UpstreamError } from '../../logical/errors.js';
import { iamClientOf, isNoSuchEntity, upstream } from './aws-clients.js';
import type { AwsEngineRole, RootConfig } from './aws-engine-store.js';

export interface CreatedUser {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Creates the IAM user of an iam_user lease: the user (path, permissions boundary, tags), its
 * groups, attached and inline policies, then an access key. Anything failing deletes what was
 * made before answering 502.
 */
export async function createIamUser(
  config: RootConfig | undefined,
  role: AwsEngineRole,
  policyName: string,
  userName: string,
): Promise<CreatedUser> {
  const client = iamClientOf(config);
  try {
    await step('CreateUser', () =>
      client.send(
        new CreateUserCommand({
          UserName: userName,
          Path: role.user_path || '/',
          ...(role.permissions_boundary_arn ? { PermissionsBoundary: role.permissions_boundary_arn } : {}),
          ...(Object.keys(role.iam_tags).length > 0
            ? { Tags: Object.entries(role.iam_tags).map(([Key, Value]) => ({ Key, Value })) }
            : {}),
        }),
      ),
    );
    try {
      for (const group of role.iam_groups)
        await step('AddUserToGroup', () =>
          client.send(new AddUserToGroupCommand({ UserName: userName, GroupName: group })),
        );
      for (const arn of role.policy_arns)
        await step('AttachUserPolicy', () =>
          client.send(new AttachUserPolicyCommand({ UserName: userName, PolicyArn: arn })),
        );
      if (role.policy_document)
        await step('PutUserPolicy', () =>
          client.send(
            new PutUserPolicyCommand({
              UserName: userName,
              PolicyName: policyName,
              PolicyDocument: role.policy_document,
            }),
          ),
        );
      const out = await step('CreateAccessKey', () => client.send(new CreateAccessKeyCommand({ UserName: userName })));
      const key = out.AccessKey;
      if (!key?.AccessKeyId || !key.SecretAccessKey) throw new UpstreamError('CreateAccessKey answered no key');
      return { accessKeyId: key.AccessKeyId, secretAccessKey: key.SecretAccessKey };
    } catch (err) {
      // Marked when what was made is gone: the caller may forget the user's write-ahead record.
      const isRolledBack = await deleteWith(client, userName).then(
        () => true,
        () => false,
      );
      throw Object.assign(err as Error, { isRolledBack });
    }
  } finally {
    client.destroy();
  }
}

/**
 * Deletes an IAM user and what it holds (groups, access keys, inline and attached policies
 * first: IAM refuses to delete a user that still has them). A user already gone counts as
 * deleted, so a retried revocation completes; any other failure is a 502.
 */
export async function deleteIamUser(config: RootConfig | undefined, userName: string): Promise<void> {
  const client = iamClientOf(config);
  try {
    await deleteWith(client, userName);
  } finally {
    client.destroy();
  }
}

async function deleteWith(client: IAMClient, userName: string): Promise<void> {
  const UserName = userName;
  const gone = (err: unknown) => {
    if (isNoSuchEntity(err)) return undefined;
    throw err;
  };
  const groups = await step('ListGroupsForUser', () =>
    client.send(new ListGroupsForUserCommand({ UserName })).catch(gone),
  );
  if (!groups) return;
  for (const g of groups.Groups ?? [])
    await step('RemoveUserFromGroup', () =>
      client.send(new RemoveUserFromGroupCommand({ UserName, GroupName: g.GroupName })).catch(gone),
    );
  const keys = await step('ListAccessKeys', () => client.send(new ListAccessKeysCommand({ UserName })).catch(gone));
  for (const k of keys?.AccessKeyMetadata ?? [])
    await step('DeleteAccessKey', () =>
      client.send(new DeleteAccessKeyCommand({ UserName, AccessKeyId: k.AccessKeyId })).catch(gone),
    );
  const inline = await step('ListUserPolicies', () =>
    client.send(new ListUserPoliciesCommand({ UserName })).catch(gone),
  );
  for (const name of inline?.PolicyNames ?? [])
    await step('DeleteUserPolicy', () =>
      client.send(new DeleteUserPolicyCommand({ UserName, PolicyName: name })).catch(gone),
    );
  const attached = await step('ListAttachedUserPolicies', () =>
    client.send(new ListAttachedUserPoliciesCommand({ UserName })).catch(gone),
  );
  for (const p of attached?.AttachedPolicies ?? [])
    await step('DetachUserPolicy', () =>
      client.send(new DetachUserPolicyCommand({ UserName, PolicyArn: p.PolicyArn })).catch(gone),
    );
  await step('DeleteUser', () => client.send(new DeleteUserCommand({ UserName })).catch(gone));
}

async function step<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw upstream(`error calling ${action}`, err);
  }
}
