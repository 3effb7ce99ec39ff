import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { rotationTime } from './path-static-roles.js';
import { roleName } from './role-name.js';
import { staticRoles } from './static-role-store.js';
import { type RotationDeps, rotateStaticRole } from './static-rotation.js';

const nameField = field.path({ description: 'Name of the static role.', caseInsensitive: true });

/** `static-cred/:name` (the current password) and `rotate-role/:name` (rotate now). */
export function pathStaticCred(d: RotationDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'static-cred/*name',
      fields: { name: nameField },
      operations: {
        read: {
          summary: "Read a static role's current password.",
          handler: async ({ storage, data }) => {
            const name = roleName(data.name);
            const role = await staticRoles.get(storage, name);
            if (!role) throw new InvalidRequestError(`unknown role: ${name}`);
            const rotated = rotationTime(role.last_rotation_ms);
            const ttl = Math.max(0, Math.round((role.next_rotation_ms - d.clock.now()) / 1000));
            // At the top level as spec 001 shows it, and under `data` as established clients read it.
            return {
              data: {
                dn: role.dn,
                username: role.username,
                password: role.password,
                last_password: role.last_password,
                rotation_period: role.rotation_period,
                ttl,
                last_service_rotation: rotated,
                last_vault_rotation: rotated,
              },
              dataAtTopLevel: true,
            };
          },
        },
      },
      help: {
        synopsis: "Read a static role's current password.",
        description: '`ttl` is the number of seconds until the next scheduled rotation.',
      },
    }),
    definePath({
      pattern: 'rotate-role/*name',
      fields: { name: nameField },
      operations: {
        update: {
          summary: "Rotate a static role's password now.",
          handler: async ({ data }) => {
            const name = roleName(data.name);
            await d.locks.run(name, async () => {
              const role = await staticRoles.get(d.storage, name);
              if (!role) throw new InvalidRequestError(`role doesn't exist: ${name}`);
              await rotateStaticRole(d, name, role).catch((err) => {
                const prefix =
                  'unable to finish rotating credentials; retries will continue in the background but it is also safe to retry manually';
                throw err instanceof UpstreamError
                  ? new UpstreamError(`${prefix}: ${err.message}`, { cause: err })
                  : err;
              });
            });
            return undefined;
          },
        },
      },
      help: {
        synopsis: "Rotate a static role's password now.",
        description: 'The next scheduled rotation moves to now + `rotation_period`.',
      },
    }),
  ];
}
