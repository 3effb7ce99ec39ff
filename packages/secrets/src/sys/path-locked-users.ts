import type { LockoutMount, SystemCore } from '../core/system-core.js';
import { definePath, field } from '../framework/index.js';

interface MountReport {
  mount_accessor: string;
  counts: number;
  alias_identifiers: string[];
}

interface NamespaceReport {
  namespace_id: string;
  namespace_path: string;
  counts: number;
  mount_accessors: MountReport[];
}

const byDecreasingCounts = (a: { counts: number }, b: { counts: number }) => b.counts - a.counts;

/** One mount's locked names; the established servers list such a mount even when nobody is locked. */
function reportMount(mount: LockoutMount): MountReport {
  const names = mount.control.lockedUsers().map((u) => u.aliasName);
  return { mount_accessor: mount.accessor, counts: names.length, alias_identifiers: names };
}

/**
 * The established listing: with `mount_accessor`, that mount of the request's namespace alone
 * (one entry, even when empty); without, every namespace from the request's down that has a
 * locked user, each with its mounts that have one. Namespaces and mounts come in decreasing
 * order of counts.
 */
function lockedUsersReport(sys: SystemCore, mountAccessor: string | undefined) {
  const mounts = sys.lockoutMounts();
  const reports: NamespaceReport[] = [];
  if (mountAccessor) {
    const mount = mounts.find((m) => m.namespace.id === sys.namespace.id && m.accessor === mountAccessor);
    const only: MountReport = mount
      ? reportMount(mount)
      : { mount_accessor: mountAccessor, counts: 0, alias_identifiers: [] };
    reports.push({
      namespace_id: sys.namespace.id,
      namespace_path: sys.namespace.path,
      counts: only.counts,
      mount_accessors: [only],
    });
  } else {
    const byNamespace = new Map<string, NamespaceReport>();
    for (const mount of mounts) {
      const report = reportMount(mount);
      if (report.counts === 0) continue;
      let ns = byNamespace.get(mount.namespace.id);
      if (!ns) {
        ns = { namespace_id: mount.namespace.id, namespace_path: mount.namespace.path, counts: 0, mount_accessors: [] };
        byNamespace.set(mount.namespace.id, ns);
      }
      ns.counts += report.counts;
      ns.mount_accessors.push(report);
    }
    for (const ns of byNamespace.values()) {
      ns.mount_accessors.sort(byDecreasingCounts);
      reports.push(ns);
    }
    reports.sort(byDecreasingCounts);
  }
  return { by_namespace: reports, total: reports.reduce((sum, ns) => sum + ns.counts, 0) };
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
      fields: { mount_accessor: field.string({ description: 'Only this auth mount of the namespace.' }) },
      operations: {
        read: {
          summary: 'List locked users of this namespace and the namespaces below it.',
          handler: async ({ data }) => ({ data: lockedUsersReport(sys, data.mount_accessor || undefined) }),
        },
      },
      help: {
        synopsis: 'Report locked users.',
        description: 'Users locked out after repeated failed logins, by namespace and auth mount.',
      },
    }),
    definePath({
      pattern: 'locked-users/:mount_accessor/unlock/:alias_identifier',
      fields: {
        mount_accessor: field.path({ description: 'Accessor of an auth mount of this namespace.' }),
        alias_identifier: field.path({ description: 'The locked name (userpass: the username).' }),
      },
      operations: {
        update: {
          summary: 'Unlock a user.',
          handler: async ({ data }) => {
            const mount = sys
              .lockoutMounts()
              .find((m) => m.namespace.id === sys.namespace.id && m.accessor === data.mount_accessor);
            mount?.control.unlockUser(data.alias_identifier);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Unlock a locked user.', description: 'Unknown mounts and names are ignored.' },
    }),
  ];
}
