import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type DatabaseDeps, notFound } from './deps.js';
import { scheduleView } from './path-static-roles.js';
import { staticRoles } from './role-store.js';
import { rotateStaticRole } from './static-rotation.js';

/** `static-creds/:name`: the current password of a static role and the time left until its next rotation. */
export function pathStaticCreds(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'static-creds/:name',
    fields: { name: field.path({ description: 'Name of the static role.' }) },
    operations: {
      read: {
        summary: "Read a static role's current password.",
        handler: async ({ storage, data }) => {
          const role = (await staticRoles.get(storage, data.name)) ?? notFound();
          const ttl = Math.max(0, Math.floor((role.next_rotation_ms - d.clock.now()) / 1000));
          return { data: { username: role.username, password: role.password, ...scheduleView(role), ttl } };
        },
      },
    },
    help: { synopsis: 'Read static credentials.', description: '`ttl`: seconds until the next rotation.' },
  });
}

/** `rotate-role/:name`: rotates a static role now (its schedule restarts from now). */
export function pathRotateRole(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'rotate-role/:name',
    fields: { name: field.path({ description: 'Name of the static role.' }) },
    operations: {
      update: {
        summary: "Rotate a static role's password now.",
        handler: ({ data }) =>
          d.locks.run(`static:${data.name}`, async () => {
            const role = await staticRoles.get(d.storage, data.name);
            if (!role) throw new InvalidRequestError(`no static role found for role name "${data.name}"`);
            await rotateStaticRole(d, data.name, role);
            return undefined;
          }),
      },
    },
    help: { synopsis: 'Rotate a static role.', description: 'A failure is retried by the schedule with backoff.' },
  });
}
