import { definePath, field, type PathDefinition } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';
import { leaseConfig, mountView } from './path-mounts.js';
import type { SystemCore } from './system-core.js';

const allAuth = (sys: SystemCore) => [...sys.builtinAuthMounts(), ...sys.mounts.entries('auth')];

/** `sys/auth`: list the enabled auth methods (keys are paths below `auth/`, with a trailing slash). */
export function pathAuthList(sys: SystemCore): PathDefinition {
  return definePath({
    pattern: 'auth',
    fields: {},
    operations: {
      read: {
        summary: 'List the enabled auth methods.',
        handler: async () => ({
          data: Object.fromEntries(allAuth(sys).map((e) => [e.path, mountView(e, sys.version)])),
          dataAtTopLevel: true,
        }),
      },
    },
    help: { synopsis: 'List auth methods.', description: 'The token method at `token/` is always present.' },
  });
}

/** `sys/auth/:path`: enable or disable an auth method; mounted at `auth/<path>`. */
export function pathAuth(sys: SystemCore): PathDefinition {
  return definePath({
    pattern: 'auth/*path',
    fields: {
      path: field.path({ description: 'Path below `auth/` to mount the method at.' }),
      type: field.string({ description: 'Auth method type (`userpass`, …).' }),
      description: field.string({ description: 'Human-readable description.' }),
      config: field.object({ description: 'Lease settings: `default_lease_ttl`, `max_lease_ttl`.' }),
      options: field.stringMap({ description: 'Method options.' }),
      local: field.bool({ description: 'Accepted for compatibility.' }),
      seal_wrap: field.bool({ description: 'Accepted for compatibility.' }),
    },
    operations: {
      read: {
        summary: 'Read one auth method mount.',
        handler: async ({ data }) => {
          const entry = allAuth(sys).find((e) => e.path === `${data.path.replace(/\/+$/, '')}/`);
          if (!entry) throw new NotFoundError('');
          return { data: mountView(entry, sys.version), dataAtTopLevel: true };
        },
      },
      update: {
        summary: 'Enable an auth method.',
        handler: async ({ data }) => {
          await sys.mounts.mount('auth', data.path, {
            type: data.type ?? '',
            description: data.description,
            config: leaseConfig(data.config),
            options: data.options ?? null,
            local: data.local,
            seal_wrap: data.seal_wrap,
          });
          return undefined;
        },
      },
      delete: {
        summary: 'Disable an auth method and erase its data.',
        handler: async ({ data }) => {
          await sys.mounts.unmount('auth', data.path);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Enable or disable an auth method.', description: 'Needs `sudo`.' },
  });
}
