import { formatDurationSeconds } from '@ward/base';
import type { ExpirationManager, LeaseEntry } from '../core/expiration/index.js';
import { remainingTtlSeconds, renewRefusal } from '../core/expiration/index.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import { rfc3339Nano } from '../logical/time.js';

/**
 * `sys/` paths that need `sudo` besides the operation's capability (relative to `sys/`,
 * a trailing `*` is a prefix): listing leases and revoking by prefix.
 */
export const LEASES_ROOT_PATHS: readonly string[] = Object.freeze([
  'leases/lookup/*',
  'leases/revoke-prefix/*',
  'leases/revoke-force/*',
  'revoke-prefix/*',
  'revoke-force/*',
]);

/** How a lease is identified: `lease_id` in the body wins over the one in the URL, as established servers do it. */
const idFields = {
  lease_id: field.string({ description: 'The lease to act on.' }),
};
const urlIdFields = {
  ...idFields,
  url_lease_id: field.path({ description: 'The lease to act on, given in the URL.' }),
};

function requireLeaseId(data: { lease_id?: string; url_lease_id?: string }): string {
  const leaseId = data.lease_id || data.url_lease_id || '';
  if (leaseId === '') throw new InvalidRequestError('lease_id must be specified');
  return leaseId;
}

/** `sys/leases/*` and the legacy `sys/renew`, `sys/revoke`, `sys/revoke-prefix`, `sys/revoke-force`. */
export function pathLeases(manager: ExpirationManager): PathDefinition[] {
  return [
    pathLookup(manager),
    pathLookupList(manager),
    pathLeasesCount(manager),
    pathLeasesTidy(manager),
    ...['leases/renew', 'renew'].flatMap((base) => [pathRenew(manager, base, false), pathRenew(manager, base, true)]),
    ...['leases/revoke', 'revoke'].flatMap((base) => [
      pathRevoke(manager, base, false),
      pathRevoke(manager, base, true),
    ]),
    ...['leases/revoke-prefix', 'revoke-prefix'].map((base) => pathRevokePrefix(manager, base, false)),
    ...['leases/revoke-force', 'revoke-force'].map((base) => pathRevokePrefix(manager, base, true)),
  ];
}

/** A lease as `sys/leases/lookup` shows it. */
function leaseView(entry: LeaseEntry, nowMs: number): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: entry.lease_id,
    issue_time: rfc3339Nano(entry.issue_time_ms),
    expire_time: entry.expire_time_ms ? rfc3339Nano(entry.expire_time_ms) : null,
    last_renewal: entry.last_renewal_ms ? rfc3339Nano(entry.last_renewal_ms) : null,
    renewable: renewRefusal(entry, nowMs) === undefined,
    ttl: remainingTtlSeconds(entry, nowMs),
  };
  if (entry.revoke_error !== '') view.revoke_error = entry.revoke_error;
  return view;
}

function pathLookup(manager: ExpirationManager): PathDefinition {
  return definePath({
    pattern: 'leases/lookup',
    // Leases and their timers live only in the active server's memory.
    forwardToActive: true,
    fields: idFields,
    operations: {
      update: {
        summary: 'Read the metadata of a lease.',
        handler: async ({ data }) => {
          const entry = manager.lookup(requireLeaseId(data));
          if (!entry) throw new InvalidRequestError('invalid lease');
          return { data: leaseView(entry, manager.now()) };
        },
      },
    },
    help: { synopsis: 'Look up a lease.', description: 'Times are RFC 3339; `ttl` is the number of seconds left.' },
  });
}

function pathLookupList(manager: ExpirationManager): PathDefinition {
  return definePath({
    pattern: 'leases/lookup/*prefix?',
    forwardToActive: true,
    fields: { prefix: field.path({ description: 'The prefix to list below.' }) },
    operations: {
      list: {
        summary: 'List the leases (and sub-prefixes) below a prefix.',
        handler: async ({ data }) => {
          const keys = manager.list(data.prefix);
          return { data: { keys } };
        },
      },
    },
    help: {
      synopsis: 'List leases by prefix.',
      description: 'Keys ending in `/` are prefixes; the others are lease suffixes.',
    },
  });
}

function pathLeasesCount(manager: ExpirationManager): PathDefinition {
  return definePath({
    pattern: 'leases/count',
    forwardToActive: true,
    fields: { type: field.string({ description: '`irrevocable` to count only those; anything else counts all.' }) },
    operations: {
      read: {
        summary: 'Count the leases.',
        handler: async ({ data }) => {
          const { total, irrevocable } = manager.count();
          return { data: { lease_count: data.type?.toLowerCase() === 'irrevocable' ? irrevocable : total } };
        },
      },
    },
    help: { synopsis: 'Count leases.', description: 'Irrevocable leases failed every automatic revocation attempt.' },
  });
}

function pathLeasesTidy(manager: ExpirationManager): PathDefinition {
  return definePath({
    pattern: 'leases/tidy',
    forwardToActive: true,
    fields: {},
    operations: {
      update: {
        summary: 'Remove index entries that point at no lease.',
        handler: async () => {
          await manager.tidy();
          return {
            status: 202,
            warnings: [
              'Tidy operation successfully started. Any information from the operation will be printed to the server logs.',
            ],
          };
        },
      },
    },
    help: {
      synopsis: 'Tidy the lease index.',
      description: 'Cleans up after crashes; leases themselves are untouched.',
    },
  });
}

function pathRenew(manager: ExpirationManager, base: string, inUrl: boolean): PathDefinition {
  return definePath({
    pattern: inUrl ? `${base}/*url_lease_id` : base,
    forwardToActive: true,
    fields: {
      ...(inUrl ? urlIdFields : idFields),
      increment: field.durationSeconds({ description: 'Requested TTL from now (0: the lease default).', default: 0 }),
    },
    operations: {
      update: {
        summary: 'Renew a secret lease.',
        handler: async ({ data }): Promise<LogicalResponse> => {
          const leaseId = requireLeaseId(data);
          const result = await manager.renew(leaseId, data.increment);
          const response: LogicalResponse = {
            lease: { leaseId, leaseDurationSeconds: result.ttlSeconds, renewable: result.renewable },
          };
          if (result.capped) {
            response.warnings = [
              `TTL of "${formatDurationSeconds(result.requestedTtlSeconds)}" exceeded the effective max_ttl of "${formatDurationSeconds(result.maxValidSeconds)}"; TTL value is capped accordingly`,
            ];
          }
          return response;
        },
      },
    },
    help: { synopsis: 'Renew a lease.', description: 'Token leases are renewed through auth/token/renew instead.' },
  });
}

function pathRevoke(manager: ExpirationManager, base: string, inUrl: boolean): PathDefinition {
  return definePath({
    pattern: inUrl ? `${base}/*url_lease_id` : base,
    forwardToActive: true,
    fields: {
      ...(inUrl ? urlIdFields : idFields),
      sync: field.bool({ description: 'Wait for the revocation (default); false answers 202 at once.', default: true }),
    },
    operations: {
      update: {
        summary: 'Revoke a lease.',
        handler: async ({ data }) => {
          await manager.revoke(requireLeaseId(data), { sync: data.sync });
          return data.sync ? undefined : { status: 202 };
        },
      },
    },
    help: { synopsis: 'Revoke a lease.', description: 'Revoking an unknown lease is not an error.' },
  });
}

function pathRevokePrefix(manager: ExpirationManager, base: string, force: boolean): PathDefinition {
  const fields = {
    prefix: field.path({ description: 'Lease id prefix: a mount, a path, or one lease id.' }),
    sync: field.bool({ description: 'Wait for the revocations (default); false answers 202 at once.', default: true }),
  };
  return definePath({
    pattern: `${base}/*prefix`,
    forwardToActive: true,
    fields,
    operations: {
      update: {
        summary: force
          ? 'Revoke every lease below a prefix, ignoring backend errors.'
          : 'Revoke every lease below a prefix.',
        handler: async ({ data }) => {
          const sync = force || data.sync;
          await manager.revokePrefix(data.prefix, { sync, force });
          return sync ? undefined : { status: 202 };
        },
      },
    },
    help: {
      synopsis: force ? 'Force-revoke leases by prefix.' : 'Revoke leases by prefix.',
      description: force
        ? 'Leases are deleted even when their backend fails to revoke them: use only when the backend is gone.'
        : 'Stops at the first lease whose backend fails to revoke it.',
    },
  });
}
