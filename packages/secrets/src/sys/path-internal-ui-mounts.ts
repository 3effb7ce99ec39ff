import type { Acl } from '../core/policy/acl.js';
import type { MountEntry } from '../core/router/mount-table.js';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { PermissionDeniedError } from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';
import { mountView } from './path-mounts.js';

/** Where the UI endpoints need the ACL of the token a request carries (they are unauthenticated paths). */
type UiMountsCore = Pick<SystemCore, 'namespace' | 'mounts' | 'version' | 'builtinMounts' | 'builtinAuthMounts'> & {
  /** The ACL of a live token; `undefined` when the token is unknown, expired or revoked. */
  aclOfToken(token: string): Promise<Acl | undefined>;
};

/** A mount with the path it is reached at from the namespace (`auth/` prefixed for auth methods). */
interface Located {
  path: string;
  entry: MountEntry;
}

function located(sys: UiMountsCore, table: 'mounts' | 'auth'): Located[] {
  if (table === 'mounts')
    return [...sys.builtinMounts(), ...sys.mounts.entries('mounts')].map((entry) => ({ path: entry.path, entry }));
  return [...sys.builtinAuthMounts(), ...sys.mounts.entries('auth')].map((entry) => ({
    path: `auth/${entry.path}`,
    entry,
  }));
}

/**
 * The ACL of the token sent with the request, `undefined` without one. An invalid token is
 * refused as an authenticated path would refuse it.
 */
async function callerAcl(sys: UiMountsCore, req: BackendRequest): Promise<Acl | undefined> {
  if (!req.clientToken) return undefined;
  const acl = await sys.aclOfToken(req.clientToken);
  if (!acl) throw PermissionDeniedError.denied();
  return acl;
}

/**
 * `sys/internal/ui/mounts` and `sys/internal/ui/mounts/*path`: which mounts a token may use,
 * for clients (the CLI's `kv` commands, UIs) whose token cannot read `sys/mounts`. A mount is
 * shown when the token has some capability at or below it; without a token, only mounts tuned
 * `listing_visibility=unauth`, in short form.
 */
export function pathInternalUiMounts(sys: UiMountsCore): PathDefinition[] {
  const fullPath = (path: string) => `${sys.namespace.path}${path}`;
  return [
    definePath({
      pattern: 'internal/ui/mounts',
      fields: {},
      operations: {
        read: {
          summary: 'List the mounts the request token may use.',
          handler: async ({ req }) => {
            const acl = await callerAcl(sys, req);
            const listing = (table: 'mounts' | 'auth') => {
              const shown = located(sys, table).filter(
                ({ path, entry }) =>
                  entry.config.listing_visibility === 'unauth' || acl?.hasAccessBelow(fullPath(path)) === true,
              );
              return Object.fromEntries(
                shown.map(({ entry }) => [
                  entry.path,
                  acl
                    ? mountView(entry, sys.version)
                    : { type: entry.type, description: entry.description, options: entry.options },
                ]),
              );
            };
            return { data: { secret: listing('mounts'), auth: listing('auth') } };
          },
        },
      },
      help: {
        synopsis: 'Mounts visible to the request token.',
        description: 'Keys `secret` and `auth`, each mapping mount paths to their settings.',
      },
    }),
    definePath({
      pattern: 'internal/ui/mounts/*path',
      fields: { path: field.path({ description: 'A path at or below a mount.' }) },
      operations: {
        read: {
          summary: 'Describe the mount that serves a path, if the request token may use it.',
          handler: async ({ req, data }) => {
            const path = `${data.path.replace(/^\/+|\/+$/g, '')}/`;
            // One answer for "no such mount" and "not yours", so this cannot probe for mounts.
            const refused = new PermissionDeniedError(
              `preflight capability check returned 403, please ensure client's policies grant access to path "${path}"`,
            );
            const found = [...located(sys, 'mounts'), ...located(sys, 'auth')]
              .filter((m) => path.startsWith(m.path))
              .sort((a, b) => b.path.length - a.path.length)[0];
            const acl = await callerAcl(sys, req).catch(() => undefined);
            if (!found || !acl?.hasAccessBelow(fullPath(found.path))) throw refused;
            return { data: { ...mountView(found.entry, sys.version), path: found.path } };
          },
        },
      },
      help: {
        synopsis: 'The mount serving a path.',
        description:
          'The mount (as `sys/mounts/:path` shows it) plus `path`, its mount point; 403 when the token has no capability below it.',
      },
    }),
  ];
}
