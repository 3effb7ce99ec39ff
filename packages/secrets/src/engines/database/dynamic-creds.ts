import { definePath, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requireSupported } from './credential-config.js';
import { credsWal } from './creds-wal.js';
import { type DatabaseDeps, requireConfig } from './deps.js';
import { dropUser } from './drop-user.js';
import { newPassword } from './passwords.js';
import { requireRoleAllowed } from './path-config.js';
import { dynamicRoles } from './role-store.js';
import { renderStatements } from './statements.js';
import type { UsernameTemplates } from './usernames.js';

/** The secret type of a dynamic user's lease (the established name). */
export const CREDS = 'creds';

/** Kept with the lease. The revocation statements are the role's at issue: a later change of the role cannot strand the user. */
interface LeaseInternal {
  username: string;
  role: string;
  db_name: string;
  revocation_statements: string[];
  wal_id: string;
  issued_ms: number;
}

/** `creds/:name`: a new database user under a lease. */
export function pathCreds(d: DatabaseDeps, usernames: UsernameTemplates): PathDefinition {
  return definePath({
    pattern: 'creds/:name',
    fields: { name: field.path({ description: 'Name of the dynamic role.' }) },
    operations: {
      read: {
        summary: 'Create a database user from a role; it is dropped when the lease ends.',
        handler: async ({ storage, data, req }) => {
          const role = await dynamicRoles.get(storage, data.name);
          if (!role) throw new InvalidRequestError(`unknown role: ${data.name}`);
          const config = await requireConfig(storage, role.db_name);
          requireRoleAllowed(config, data.name);
          requireSupported(role.credential_type);
          if (role.creation_statements.length === 0) throw new InvalidRequestError('no creation statements provided');
          const { plugin, session } = await d.connections.get(storage, role.db_name, config);
          const username = usernames.render(
            config.username_template || plugin.defaultUsernameTemplate,
            { RoleName: data.name, DisplayName: req.caller?.displayName ?? '' },
            plugin.maxUsernameLength,
          );
          // A role's own password policy (credential_config) comes before the connection's.
          const policy = role.credential_config.password_policy || config.password_policy;
          const password = await newPassword(policy, d.random, d.system);
          const issuedMs = d.clock.now();
          const ttlSeconds = effectiveTtl(d, role.default_ttl, role.max_ttl);
          const values = new Map([
            ['name', username],
            ['username', username],
            ['password', password],
            ['expiration', plugin.expiration(issuedMs + ttlSeconds * 1000)],
          ]);
          const walId = Buffer.from(d.random.bytes(16)).toString('hex');
          const revocation = role.revocation_statements;
          await credsWal.put(storage, walId, {
            instance: d.instanceId,
            created_ms: issuedMs,
            db_name: role.db_name,
            username,
            revocation_statements: revocation,
          });
          try {
            await session.transaction(renderStatements(role.creation_statements, values));
          } catch (err) {
            // The transaction took nothing; rollback statements undo what a database commits regardless (MySQL's CREATE USER).
            if (role.rollback_statements.length > 0)
              await session.each(renderStatements(role.rollback_statements, values));
            await credsWal.delete(storage, walId);
            throw new UpstreamError(`failed to create user: ${(err as Error).message}`, { cause: err });
          }
          const internal: LeaseInternal = {
            username,
            role: data.name,
            db_name: role.db_name,
            revocation_statements: revocation,
            wal_id: walId,
            issued_ms: issuedMs,
          };
          return {
            secret: {
              type: CREDS,
              data: { username, password },
              internal: internal as unknown as Record<string, unknown>,
              ttlSeconds,
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Request database credentials for a role.',
      description: 'The user exists until its lease is revoked or expires.',
    },
  });
}

/** The role's TTL (else the mount's default), capped by the role's max (else the mount's). */
function effectiveTtl(d: DatabaseDeps, defaultTtl: number, maxTtl: number): number {
  const ttl = defaultTtl || d.system.defaultLeaseTtlSeconds();
  const max = maxTtl || d.system.maxLeaseTtlSeconds();
  return Math.min(ttl, max);
}

/**
 * The lease of a dynamic user. `leased` drops the write-ahead record once the lease exists;
 * revoking drops the user; renewing runs the role's renew statements with the new expiry.
 */
export function credsSecret(d: DatabaseDeps): SecretType {
  return {
    type: CREDS,
    async leased({ storage, internal }) {
      await credsWal.delete(storage, (internal as unknown as LeaseInternal).wal_id);
    },
    async revoke({ storage, internal }) {
      const lease = internal as unknown as LeaseInternal;
      await dropUser(d, storage, lease);
      if (lease.wal_id) await credsWal.delete(storage, lease.wal_id);
    },
    async renew({ storage, internal, incrementSeconds }) {
      const lease = internal as unknown as LeaseInternal;
      const role = await dynamicRoles.get(storage, lease.role);
      if (!role) throw new InvalidRequestError(`error during renew: could not find role with name ${lease.role}`);
      let ttl = incrementSeconds || role.default_ttl || d.system.defaultLeaseTtlSeconds();
      const maxTtl = role.max_ttl || d.system.maxLeaseTtlSeconds();
      const left = Math.floor((lease.issued_ms + maxTtl * 1000 - d.clock.now()) / 1000);
      if (left <= 0) throw new InvalidRequestError('lease has reached the max_ttl of its role');
      ttl = Math.min(ttl, left);
      const config = await requireConfig(storage, lease.db_name);
      const { plugin, session } = await d.connections.get(storage, lease.db_name, config);
      const statements = role.renew_statements.length > 0 ? role.renew_statements : plugin.defaultRenewStatements;
      if (statements.length > 0) {
        const values = new Map([
          ['name', lease.username],
          ['username', lease.username],
          ['expiration', plugin.expiration(d.clock.now() + ttl * 1000)],
        ]);
        await session.transaction(renderStatements(statements, values)).catch((err: Error) => {
          throw new UpstreamError(`failed to renew user: ${err.message}`, { cause: err });
        });
      }
      return { ttlSeconds: ttl };
    },
  };
}
