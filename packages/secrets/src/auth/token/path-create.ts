import { authResponse, type CreateTokenRequest, type TokenRole } from '../../core/tokens/index.js';
import { definePath, type FieldValues, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import { callerToken, mountTtls, type TokenBackendDeps, type TokenRequest } from './deps.js';

const createFields = {
  id: field.string({ description: 'Token text to use instead of a random one (root or sudo only).' }),
  role_name: field.string({ description: 'Role to create the token through.' }),
  policies: field.commaStrings({ description: 'Policies of the token; default: the parent token’s.' }),
  meta: field.stringMap({ description: 'Arbitrary key/value metadata shown in lookups and audit logs.' }),
  no_parent: field.bool({ description: 'Create an orphan token (root or sudo only).' }),
  no_default_policy: field.bool({ description: 'Do not attach the `default` policy.' }),
  renewable: field.bool({ description: 'Whether the token may be renewed.', default: true }),
  ttl: field.durationSeconds({ description: 'Initial TTL.' }),
  lease: field.durationSeconds({ description: 'Deprecated alias of `ttl`.' }),
  type: field.string({ description: 'Token type: `service` or `batch`.' }),
  explicit_max_ttl: field.durationSeconds({ description: 'Hard limit on the token’s lifetime, even across renewals.' }),
  display_name: field.string({ description: 'Name shown in lookups, stored as `token-<name>`.' }),
  num_uses: field.int({ description: 'Number of requests the token may make; 0 = unlimited.' }),
  period: field.durationSeconds({
    description: 'Make the token periodic: each renewal sets its TTL to this (root or sudo only).',
  }),
  entity_alias: field.string({ description: 'Name of an entity alias to bind the token to (roles only).' }),
};

type CreateData = FieldValues<typeof createFields>;

const HELP = {
  synopsis: 'Create a token as a child of the caller’s token.',
  description:
    'The new token gets a subset of the caller’s policies unless the caller has sudo; ' +
    'it is revoked with its parent unless it is an orphan.',
};

/** `create`, `create-orphan` and `create/:role_name`. */
export function pathCreate(d: TokenBackendDeps) {
  const create = (kind: 'plain' | 'orphan') =>
    definePath({
      pattern: kind === 'orphan' ? 'create-orphan' : 'create',
      fields: createFields,
      operations: {
        update: {
          summary: kind === 'orphan' ? 'Create an orphan token.' : 'Create a token.',
          handler: async ({ req, data }) =>
            issue(d, req, data, { orphan: kind === 'orphan', roleName: data.role_name }),
        },
      },
      help: HELP,
    });
  const withRole = definePath({
    pattern: 'create/:role_name',
    fields: {
      ...createFields,
      role_name: field.path({ description: 'Role to create the token through.', caseInsensitive: true }),
    },
    operations: {
      update: {
        summary: 'Create a token through a role.',
        handler: async ({ req, data }) => issue(d, req, data, { orphan: false, roleName: data.role_name }),
      },
    },
    help: HELP,
  });
  return [create('plain'), create('orphan'), withRole];
}

async function issue(
  d: TokenBackendDeps,
  req: TokenRequest,
  data: CreateData,
  how: { orphan: boolean; roleName: string | undefined },
): Promise<LogicalResponse> {
  const { entry: parent } = await callerToken(d, req);
  let role: TokenRole | undefined;
  let path = `${req.mountPoint}${how.orphan ? 'create-orphan' : 'create'}`;
  if (how.roleName) {
    role = await d.roles.get(how.roleName);
    if (!role) throw new InvalidRequestError(`unknown role ${how.roleName}`);
    path = `${req.mountPoint}create/${role.name}${role.path_suffix ? `/${role.path_suffix}` : ''}`;
  }
  const request: CreateTokenRequest = {
    path,
    id: data.id,
    policies: data.policies,
    meta: data.meta ?? null,
    noParent: data.no_parent,
    noDefaultPolicy: data.no_default_policy,
    renewable: data.renewable,
    ttl: data.ttl || data.lease,
    explicitMaxTtl: data.explicit_max_ttl,
    period: data.period,
    displayName: data.display_name,
    numUses: data.num_uses,
    type: data.type,
    entityAlias: data.entity_alias,
    orphan: how.orphan,
  };
  const isSudo = await d.hasSudo(req, `${req.mountPoint}${req.path}`);
  const { token, entry, warnings } = await d.store.create(request, {
    parent,
    isSudo,
    role,
    mount: mountTtls(d),
    namespaceId: d.namespaceId,
  });
  if (d.policyExists) {
    for (const policy of entry.policies) {
      if (policy !== 'root' && !(await d.policyExists(policy))) warnings.push(`Policy "${policy}" does not exist`);
    }
  }
  return { data: null, auth: authResponse(token, entry), ...(warnings.length > 0 ? { warnings } : {}) };
}
