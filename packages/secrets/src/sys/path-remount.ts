import { type Random, randomUuid } from '@ward/base';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';

interface Migration {
  source_mount: string;
  target_mount: string;
  status: 'success' | 'failure';
}

/** Paths below which nothing may be moved, or to which nothing may move. */
const PROTECTED = ['sys/', 'audit/', 'cubbyhole/', 'identity/', 'auth/token/'];

/**
 * `sys/remount` and `sys/remount/status/:migration_id`: move a mount to another path in
 * the same namespace. Data stays where it is (storage is keyed by the mount's uuid), so the
 * move itself is immediate; leases issued under the old path are revoked first, since
 * their ids name it. Migration records live in memory: a restart forgets finished moves.
 */
export function pathRemount(sys: SystemCore, random: Random): PathDefinition[] {
  const migrations = new Map<string, Migration>();
  return [
    definePath({
      pattern: 'remount',
      fields: {
        from: field.string({ description: 'Current mount path (`secret/`, or `auth/userpass/`).', required: true }),
        to: field.string({ description: 'New mount path.', required: true }),
      },
      operations: {
        update: {
          summary: 'Move a mount to another path.',
          handler: async ({ data }) => {
            const from = `${(data.from ?? '').replace(/^\/+|\/+$/g, '')}/`;
            const to = `${(data.to ?? '').replace(/^\/+|\/+$/g, '')}/`;
            for (const p of [from, to]) {
              if (PROTECTED.some((x) => p.startsWith(x))) throw new InvalidRequestError(`cannot remount "${p}"`);
              // A path inside a child namespace names that namespace's table, not this one's: moving
              // there would leave the mount listed here while serving there, shadowed by its own mounts.
              if (sys.namespaces.get(p.split('/')[0] ?? '')) {
                throw new InvalidRequestError(`cannot remount "${p}": it is inside a child namespace`);
              }
            }
            const isAuth = from.startsWith('auth/');
            if (isAuth !== to.startsWith('auth/')) {
              throw new InvalidRequestError('cannot remount between secrets engines and auth methods');
            }
            const table = isAuth ? 'auth' : 'mounts';
            const strip = (p: string) => (isAuth ? p.slice('auth/'.length) : p);
            await sys.mounts.move(table, strip(from), strip(to));
            const id = randomUuid(random);
            migrations.set(id, { source_mount: from, target_mount: to, status: 'success' });
            return { data: { migration_id: id }, dataAtTopLevel: true };
          },
        },
      },
      help: {
        synopsis: 'Move a mount.',
        description: 'Both paths must be in the same namespace: a path inside a child namespace is refused (400).',
      },
    }),
    definePath({
      pattern: 'remount/status/:migration_id',
      fields: { migration_id: field.path({ description: 'Id returned by `sys/remount`.' }) },
      operations: {
        read: {
          summary: 'Status of a move.',
          handler: async ({ data }) => {
            const migration = migrations.get(data.migration_id);
            if (!migration) throw new NotFoundError('');
            return { data: { migration_id: data.migration_id, migration_info: migration } };
          },
        },
      },
      help: { synopsis: 'Read the status of a move.', description: 'Moves finish at once; status is `success`.' },
    }),
  ];
}
