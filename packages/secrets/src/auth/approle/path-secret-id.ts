import { randomUuid } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { AppRoleDeps } from './deps.js';
import { roleFields } from './role-fields.js';
import { normalizeRoleName } from './role-store.js';
import { requireSecretIdRole, type SecretIdRequest, secretIdRecord, storeSecretId } from './secret-id-issue.js';

const issueFields = {
  role_name: roleFields.role_name,
  metadata: field.stringMap({
    description: 'Metadata of the secret id (a JSON object of strings, or its text); copied onto issued tokens.',
  }),
  cidr_list: field.commaStrings({ description: 'CIDR blocks the secret id may be used from.' }),
  token_bound_cidrs: field.commaStrings({ description: 'CIDR blocks issued tokens are bound to.' }),
  ttl: field.durationSeconds({ description: 'Lifetime of the secret id; at most the role’s `secret_id_ttl`.' }),
  num_uses: field.int({ description: 'Uses of the secret id; at most the role’s `secret_id_num_uses`.' }),
};

type IssueData = {
  metadata?: Record<string, string>;
  cidr_list?: string[];
  token_bound_cidrs?: string[];
  ttl?: number;
  num_uses?: number;
};

const secretIdRequest = (data: IssueData): SecretIdRequest => ({
  metadata: data.metadata ?? {},
  cidrList: data.cidr_list ?? [],
  tokenBoundCidrs: data.token_bound_cidrs ?? [],
  ttlSeconds: data.ttl,
  numUses: data.num_uses,
});

/** `role/:role_name/secret-id/` (LIST): the accessors of the role's secret ids. */
export function pathSecretIdList(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name/secret-id/',
    fields: { role_name: roleFields.role_name },
    operations: {
      list: {
        summary: 'List the accessors of the role’s secret ids.',
        handler: async ({ storage, data }) => {
          const name = normalizeRoleName(data.role_name);
          if (!(await d.roles.get(storage, name))) throw new InvalidRequestError(`role "${name}" does not exist`);
          const keys = (await d.secretIds.all(storage, name)).map((s) => s.record.secret_id_accessor).sort();
          return { data: { keys } };
        },
      },
    },
    help: { synopsis: 'List secret id accessors.', description: 'Expired secret ids are listed until tidied.' },
  });
}

/** `role/:role_name/secret-id`: generate a secret id. */
export function pathSecretId(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name/secret-id',
    fields: issueFields,
    operations: {
      update: {
        summary: 'Generate a secret id; it is shown once, in this response.',
        handler: async ({ storage, data }) => {
          const name = normalizeRoleName(data.role_name);
          const role = await requireSecretIdRole(d, storage, name);
          const record = secretIdRecord(d, role, secretIdRequest(data));
          return { data: await storeSecretId(d, storage, name, randomUuid(d.random), record) };
        },
      },
    },
    help: {
      synopsis: 'Generate secret ids of a role.',
      description: 'Only a salted digest of each secret id is stored; the id itself cannot be read back.',
    },
  });
}

/** `role/:role_name/custom-secret-id`: register a secret id chosen by the caller. */
export function pathCustomSecretId(d: AppRoleDeps) {
  return definePath({
    pattern: 'role/:role_name/custom-secret-id',
    fields: { ...issueFields, secret_id: field.string({ description: 'The secret id to register.' }) },
    operations: {
      update: {
        summary: 'Register a secret id chosen by the caller.',
        handler: async ({ storage, data }) => {
          const name = normalizeRoleName(data.role_name);
          if (!data.secret_id) throw new InvalidRequestError('missing secret_id');
          const role = await requireSecretIdRole(d, storage, name);
          const record = secretIdRecord(d, role, secretIdRequest(data));
          return { data: await storeSecretId(d, storage, name, data.secret_id, record) };
        },
      },
    },
    help: {
      synopsis: 'Register a custom secret id.',
      description: 'For secret ids made elsewhere; an id already registered for the role is refused.',
    },
  });
}
