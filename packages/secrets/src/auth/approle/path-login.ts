import { definePath, field, isAddressInCidrs } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { tokenGrant } from '../common/index.js';
import type { AppRoleDeps } from './deps.js';
import type { RoleRecord } from './role-store.js';
import { isExpired, type SecretIdRecord } from './secret-id-store.js';

/** The one answer for an unknown role id and a wrong secret id (400, as established), so neither tells which. */
const badCredentials = () => new InvalidRequestError('invalid role or secret ID');

/**
 * Spends one use of the secret id, under its lock: a secret id limited to N uses logs in
 * exactly N times however many logins race. Answers its record as it was before this use.
 */
async function useSecretId(
  d: AppRoleDeps,
  storage: Storage,
  roleName: string,
  secretId: string,
  remoteAddress: string,
): Promise<SecretIdRecord | undefined> {
  return d.secretIds.locked(roleName, secretId, async (key) => {
    const record = await d.secretIds.get(storage, key);
    if (!record) return undefined;
    if (isExpired(record, d.clock.now())) {
      await d.secretIds.delete(storage, { key, record });
      return undefined;
    }
    // Checked before the use is spent: a refused address costs the secret id nothing.
    if (record.cidr_list.length > 0 && !isAddressInCidrs(record.cidr_list, remoteAddress)) {
      throw new InvalidRequestError(
        `source address "${remoteAddress}" unauthorized through CIDR restrictions on the secret ID`,
      );
    }
    if (record.secret_id_num_uses === 1) await d.secretIds.delete(storage, { key, record });
    else if (record.secret_id_num_uses > 1) {
      const left = record.secret_id_num_uses - 1;
      await d.secretIds.update(storage, key, {
        ...record,
        secret_id_num_uses: left,
        last_updated_time_ms: d.clock.now(),
      });
    }
    return record;
  });
}

function checkRoleCidrs(role: RoleRecord, remoteAddress: string): void {
  if (role.secret_id_bound_cidrs.length > 0 && !isAddressInCidrs(role.secret_id_bound_cidrs, remoteAddress)) {
    throw new InvalidRequestError(`source address "${remoteAddress}" unauthorized by CIDR restrictions on the role`);
  }
}

/** `login`: a machine login with a role id and (when the role binds one) a secret id. */
export function pathLogin(d: AppRoleDeps) {
  return definePath({
    pattern: 'login',
    fields: {
      role_id: field.string({ description: 'Role id of the role to log in as.' }),
      secret_id: field.string({ description: 'A secret id of the role (when it binds secret ids).' }),
    },
    operations: {
      update: {
        summary: 'Log in with a role id and a secret id.',
        handler: async ({ storage, data, req }) => {
          const roleId = data.role_id;
          if (!roleId) throw new InvalidRequestError('missing role_id');
          const name = await d.roles.nameByRoleId(storage, roleId);
          const role = name === undefined ? undefined : await d.roles.get(storage, name);
          if (name === undefined || !role) throw badCredentials();
          checkRoleCidrs(role, req.remoteAddress);
          let secret: SecretIdRecord | undefined;
          if (role.bind_secret_id) {
            if (!data.secret_id) throw new InvalidRequestError('missing secret_id');
            // Counted before the check, so concurrent guesses cannot outrun the lockout threshold.
            // Beyond the failures the role id has left, an attempt waits for a place (issue 28).
            const attempt = await d.lockout.acquire(roleId, true);
            if (!attempt) throw PermissionDeniedError.denied();
            try {
              secret = await useSecretId(d, storage, name, data.secret_id, req.remoteAddress);
            } finally {
              attempt.settle(secret !== undefined);
            }
            if (!secret) throw badCredentials();
          } else if (d.lockout.isLocked(roleId)) {
            throw PermissionDeniedError.denied();
          }
          const grant = tokenGrant(role.token);
          return {
            login: {
              ...grant,
              // The identity alias of an AppRole login is its role id, as established.
              aliasName: role.role_id,
              displayName: '',
              metadata: { ...secret?.metadata, role_name: name },
              boundCidrs: secret?.token_bound_cidrs.length ? secret.token_bound_cidrs : grant.boundCidrs,
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with AppRole.',
      description:
        'Needs no token. An unknown role id and a wrong secret id get the same 400; a secret id ' +
        'with limited uses is spent by each successful login.',
    },
  });
}
