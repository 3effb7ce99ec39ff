import { definePath, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { TemplateError } from '../../framework/template/index.js';
import { InvalidRequestError, NotFoundError, UpstreamError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { Directory } from './directory-ops.js';
import { DEFAULT_USERNAME_TEMPLATE, dynamicRoles } from './dynamic-role-store.js';
import { type LdifEntry, parseLdif } from './ldif.js';
import { type LdifData, ldifData, renderLdif, renderLdifChecked, renderUsername } from './ldif-templates.js';
import { newPassword } from './passwords.js';
import { roleName } from './role-name.js';
import { type RotationDeps, reload, requireConfig } from './static-rotation.js';

/** The secret type of a dynamic account's lease. */
export const DYNAMIC_CREDS = 'dynamic_creds';

/**
 * Kept with the lease: the deletion LDIF rendered at issue (base64 of its bytes: `utf16le`
 * may make any). Leases issued before it existed keep the template and its data instead.
 */
interface LeaseInternal {
  role: string;
  deletion?: string;
  deletion_ldif?: string;
  data?: LdifData;
  issued_ms: number;
}

/** `creds/:name`: creates an account from the role's templates and leases it. */
export function pathCreds(d: RotationDeps): PathDefinition {
  return definePath({
    pattern: 'creds/*name',
    fields: { name: field.path({ description: 'Name of the dynamic role.', caseInsensitive: true }) },
    operations: {
      read: {
        summary: 'Create an account from a dynamic role; it is deleted when the lease ends.',
        handler: async ({ storage, data, req }) => {
          const name = roleName(data.name);
          const role = await dynamicRoles.get(storage, name);
          if (!role) throw new NotFoundError('');
          const config = await requireConfig(storage);
          const displayName = req.caller?.displayName ?? '';
          const username = renderTemplate('username_template', () =>
            renderUsername(
              role.username_template || DEFAULT_USERNAME_TEMPLATE,
              { RoleName: name, DisplayName: displayName },
              d,
            ),
          );
          const password = await newPassword(config, d.random, d.system);
          const issuedMs = d.clock.now();
          const ldif = ldifData({
            username,
            password,
            roleName: name,
            displayName,
            issuedMs,
            ttlSeconds: role.default_ttl,
          });
          const entries = renderTemplate('creation_ldif', () => renderLdif(role.creation_ldif, ldif, d));
          // Rendered now, before anything is created: a deletion that cannot render fails this
          // request instead of leaving an account no revocation can remove.
          const deletion = renderTemplate('deletion_ldif', () => renderLdifChecked(role.deletion_ldif, ldif, d));
          await d.pool.use(config, reload(storage), async (directory) => {
            for (const entry of entries) {
              await directory.apply(entry).catch(async (err) => {
                throw await rolledBack(err, role.rollback_ldif, ldif, d, directory);
              });
            }
          });
          const internal: LeaseInternal = { role: name, deletion: deletion.toString('base64'), issued_ms: issuedMs };
          const ttl = role.max_ttl ? Math.min(role.default_ttl || role.max_ttl, role.max_ttl) : role.default_ttl;
          return {
            secret: {
              type: DYNAMIC_CREDS,
              data: { username, password, distinguished_names: entries.map((e) => e.dn) },
              internal: internal as unknown as Record<string, unknown>,
              ttlSeconds: ttl,
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Create an account from a dynamic role.',
      description:
        '`creation_ldif` runs in order and stops at the first failure, after which `rollback_ldif` runs in full.',
    },
  });
}

function renderTemplate<T>(field: string, render: () => T): T {
  try {
    return render();
  } catch (err) {
    if (err instanceof TemplateError) throw new InvalidRequestError(`invalid ${field}: ${err.message}`);
    throw err;
  }
}

/** Runs the rollback LDIF in full (past failures) after a failed creation; the error names both. */
async function rolledBack(
  cause: unknown,
  rollbackLdif: string,
  data: LdifData,
  d: RotationDeps,
  directory: Directory,
): Promise<Error> {
  const message = `failed to create user: ${(cause as Error).message}`;
  if (!rollbackLdif) return new UpstreamError(message, { cause });
  const failures: string[] = [];
  for (const entry of renderLdif(rollbackLdif, data, d)) {
    await directory.apply(entry).catch((err: Error) => failures.push(err.message));
  }
  const rollback = failures.length > 0 ? `; rollback failed: ${failures.join('; ')}` : '; rolled back';
  return new UpstreamError(message + rollback, { cause });
}

/** The records a lease's revocation runs: as rendered at issue (or, for an older lease, rendered now). */
function deletionEntries(lease: LeaseInternal, d: RotationDeps): LdifEntry[] {
  if (lease.deletion !== undefined) return parseLdif(Buffer.from(lease.deletion, 'base64'));
  return renderLdif(lease.deletion_ldif ?? '', lease.data as LdifData, d);
}

/**
 * The lease of a dynamic account: revoking (at expiry or on request) runs the deletion LDIF
 * saved at issue, every entry even past failures (an entry already gone counts as deleted,
 * so a retried revocation completes); renewing re-reads the role's TTLs.
 */
export function dynamicCredsSecret(d: RotationDeps): SecretType {
  return {
    type: DYNAMIC_CREDS,
    async revoke({ storage, internal }) {
      const lease = internal as unknown as LeaseInternal;
      const config = await requireConfig(storage);
      const failures: string[] = [];
      await d.pool.use(config, reload(storage), async (directory) => {
        for (const entry of deletionEntries(lease, d)) {
          await directory.apply(entry, { isMissingOk: true }).catch((err: Error) => failures.push(err.message));
        }
      });
      if (failures.length > 0) throw new UpstreamError(`failed to delete user: ${failures.join('; ')}`);
    },
    async renew({ storage, internal, incrementSeconds }) {
      const lease = internal as unknown as LeaseInternal;
      const role = await dynamicRoles.get(storage as Storage, lease.role);
      if (!role) throw new InvalidRequestError('unable to renew: role does not exist');
      let ttl = incrementSeconds || role.default_ttl;
      if (role.max_ttl) {
        const left = Math.floor((lease.issued_ms + role.max_ttl * 1000 - d.clock.now()) / 1000);
        if (left <= 0) throw new InvalidRequestError('lease has reached the max_ttl of its role');
        ttl = Math.min(ttl || left, left);
      }
      return ttl ? { ttlSeconds: ttl } : undefined;
    },
  };
}
