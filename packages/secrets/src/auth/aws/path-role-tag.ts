import type { Random } from '@ward/base';
import { randomUuid } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { awsAuthStore } from './aws-auth-store.js';
import { createRoleTag } from './role-tag.js';

/** `role/:role/tag`: a signed tag value restricting what an instance tagged with it gets. */
export function pathRoleTag(random: Random): PathDefinition {
  return definePath({
    pattern: 'role/:role/tag',
    fields: {
      role: field.path({ description: 'Role name.', caseInsensitive: true }),
      policies: field.commaStrings({ description: 'Policies of the tag (a subset of the role’s; default: all).' }),
      max_ttl: field.durationSeconds({ description: 'Maximum TTL of tokens issued with the tag.' }),
      instance_id: field.string({ description: 'The only instance the tag is valid on.' }),
      allow_instance_migration: field.bool({ description: 'Accept a newer pendingTime for the instance.' }),
      disallow_reauthentication: field.bool({ description: 'One login per instance.' }),
    },
    operations: {
      update: {
        summary: 'Create a role tag.',
        handler: async ({ storage, data }) => {
          const role = await awsAuthStore.role(storage, data.role);
          if (!role) throw new InvalidRequestError(`entry not found for role ${data.role}`);
          if (!role.role_tag) throw new InvalidRequestError(`tag creation is not enabled for role ${data.role}`);
          const policies = data.policies ?? [];
          const allowed = new Set(role.token.token_policies);
          if (!role.token.token_policies.includes('root') && policies.some((p) => !allowed.has(p) && p !== 'default'))
            throw new InvalidRequestError('policies on the tag should be a subset of the policies of the role');
          if (data.allow_instance_migration && data.disallow_reauthentication)
            throw new InvalidRequestError('cannot set both disallow_reauthentication and allow_instance_migration');
          const value = createRoleTag(role, {
            nonce: randomUuid(random),
            role: data.role.toLowerCase(),
            policies,
            maxTtl: data.max_ttl ?? 0,
            instanceId: data.instance_id ?? '',
            allowInstanceMigration: data.allow_instance_migration ?? false,
            disallowReauthentication: data.disallow_reauthentication ?? false,
          });
          return { data: { tag_key: role.role_tag, tag_value: value } };
        },
      },
    },
    help: {
      synopsis: 'Create a role tag.',
      description: 'Set the value as the instance tag named by the role’s `role_tag`; ec2 logins then honour it.',
    },
  });
}
