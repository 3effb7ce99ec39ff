import { definePath, field } from '../framework/index.js';
import { hasLockout } from '../logical/response.js';
import type { SystemCore } from './system-core.js';

/** The namespace's auth mounts that keep a lockout table, by accessor. */
function lockoutMounts(sys: SystemCore) {
  const byPoint = new Map(sys.mounts.entries('auth').map((e) => [`${sys.namespace.path}auth/${e.path}`, e.accessor]));
  const found = [];
  for (const route of sys.openapiRoutes()) {
    const accessor = byPoint.get(`${sys.namespace.path}${route.mountPoint}`);
    if (accessor && hasLockout(route.backend)) found.push({ accessor, control: route.backend });
  }
  return found;
}

/**
 * `locked-users` (read) and `locked-users/:mount_accessor/unlock/:alias_identifier`: the
 * users that repeated failed logins locked out of an auth method, and how to let them in
 * again before the lock ends.
 */
export function pathLockedUsers(sys: SystemCore) {
  return [
    definePath({
      pattern: 'locked-users',
      fields: { mount_accessor: field.string({ description: 'Only this auth mount.' }) },
      operations: {
        read: {
          summary: 'List locked users by namespace and mount.',
          handler: async ({ data }) => {
            const accessors: Record<string, { counts: number; alias_identifiers: string[] }> = {};
            let total = 0;
            for (const { accessor, control } of lockoutMounts(sys)) {
              if (data.mount_accessor && data.mount_accessor !== accessor) continue;
              const names = control.lockedUsers().map((u) => u.aliasName);
              if (names.length === 0) continue;
              accessors[accessor] = { counts: names.length, alias_identifiers: names };
              total += names.length;
            }
            const byNamespace =
              total === 0
                ? []
                : [
                    {
                      namespace_id: sys.namespace.id,
                      namespace_path: sys.namespace.path,
                      counts: total,
                      mount_accessors: accessors,
                    },
                  ];
            return { data: { by_namespace: byNamespace, total } };
          },
        },
      },
      help: { synopsis: 'Report locked users.', description: 'Users locked out after repeated failed logins.' },
    }),
    definePath({
      pattern: 'locked-users/:mount_accessor/unlock/:alias_identifier',
      fields: {
        mount_accessor: field.path({ description: 'Accessor of the auth mount.' }),
        alias_identifier: field.path({ description: 'The locked name (userpass: the username).' }),
      },
      operations: {
        update: {
          summary: 'Unlock a user.',
          handler: async ({ data }) => {
            const mount = lockoutMounts(sys).find((m) => m.accessor === data.mount_accessor);
            mount?.control.unlockUser(data.alias_identifier);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Unlock a locked user.', description: 'Unknown mounts and names are ignored.' },
    }),
  ];
}
