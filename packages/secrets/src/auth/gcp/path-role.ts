import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import { type GcpRole, gcpStore } from './gcp-store.js';

/** The established default of `max_jwt_exp`: a login JWT may expire at most 15 minutes ahead. */
const DEFAULT_MAX_JWT_EXP = 900;

/** `role/:name` and LIST `role`/`roles`: `iam` roles binding service accounts (and projects). */
export function pathRoles(): PathDefinition[] {
  const list = (pattern: string) =>
    definePath({
      pattern,
      fields: {},
      operations: {
        list: {
          summary: 'List the roles.',
          handler: async ({ storage }) => ({ data: { keys: await gcpStore.roles(storage) } }),
        },
      },
      help: { synopsis: 'List the roles.', description: '404 when there are none.' },
    });
  return [
    list('role/'),
    list('roles/'),
    definePath({
      pattern: 'role/:name',
      fields: {
        name: field.path({ description: 'Role name.' }),
        type: field.string({ description: '`iam` (the only type here; `gce` is refused).' }),
        bound_service_accounts: field.commaStrings({
          description: 'Service account emails that may log in (`*`: any).',
        }),
        bound_projects: field.commaStrings({ description: 'Projects the service account must belong to.' }),
        max_jwt_exp: field.durationSeconds({ description: 'Furthest `exp` of a login JWT (default 15m).' }),
        ...tokenFields,
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await gcpStore.role(storage, data.name);
            const type = data.type ?? current?.type;
            if (!type) throw new InvalidRequestError('role type must be provided');
            if (type !== 'iam')
              throw new InvalidRequestError(`role type "${type}" is not supported here: only iam (service accounts)`);
            const role: GcpRole = {
              type,
              bound_service_accounts: data.bound_service_accounts ?? current?.bound_service_accounts ?? [],
              bound_projects: data.bound_projects ?? current?.bound_projects ?? [],
              max_jwt_exp: data.max_jwt_exp ?? current?.max_jwt_exp ?? DEFAULT_MAX_JWT_EXP,
              token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
            };
            if (role.bound_service_accounts.length === 0)
              throw new InvalidRequestError('IAM role type must have at least one service account');
            if (role.max_jwt_exp <= 0) throw new InvalidRequestError('max_jwt_exp must be positive');
            await gcpStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        read: {
          summary: 'Read the role.',
          handler: async ({ storage, data }) => {
            const role = await gcpStore.role(storage, data.name);
            if (!role) throw new NotFoundError('');
            const { token, ...rest } = role;
            return { data: { ...rest, ...tokenReadData(token) } };
          },
        },
        delete: {
          summary: 'Delete the role.',
          handler: async ({ storage, data }) => {
            await gcpStore.deleteRole(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an iam role.',
        description:
          'A service account in bound_service_accounts (and, if set, in one of bound_projects) logs in with a JWT it signed.',
      },
    }),
  ];
}
