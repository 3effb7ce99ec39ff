import { randomBytes } from 'node:crypto';
import type { BackendFactory } from '../../src/core/router/mounts.js';
import { createBackend, definePath, field, type SecretType } from '../../src/framework/index.js';

/**
 * Stands in for the external system whose credentials a leasing engine hands out (a
 * database, a directory). Lives outside the server, so tests see what the core asked the
 * engine to do across restarts and unmounts.
 */
export class FakeUpstream {
  /** Credentials that exist upstream now, by user name. */
  readonly live = new Map<string, string>();
  readonly revoked: string[] = [];
  readonly renewals: Array<{ username: string; incrementSeconds: number }> = [];
  revokeAttempts = 0;
  /** The next this many revocations fail (the upstream is down). */
  failRevocations = 0;
  /** What a renewal grants; `undefined`: the increment as asked. */
  renewTtlSeconds: number | undefined;
}

const usernameOf = (internal: Record<string, unknown>) => String(internal.username);

/**
 * A test-only secrets engine: `GET <mount>/creds/<role>` creates a user upstream and leases
 * it (renewable, default 1 h, max 2 h); `GET <mount>/static/<role>` leases one that cannot
 * be renewed. Its secret types revoke and renew upstream from the lease's stored data.
 */
export function createLeasingBackend(upstream: FakeUpstream): BackendFactory {
  const revoke: SecretType['revoke'] = async ({ internal }) => {
    upstream.revokeAttempts++;
    if (upstream.failRevocations > 0) {
      upstream.failRevocations--;
      throw new Error('upstream unavailable');
    }
    upstream.live.delete(usernameOf(internal));
    upstream.revoked.push(usernameOf(internal));
  };
  const secrets: SecretType[] = [
    {
      type: 'fake_cred',
      defaultTtlSeconds: 3600,
      maxTtlSeconds: 7200,
      revoke,
      renew: async ({ internal, incrementSeconds }) => {
        upstream.renewals.push({ username: usernameOf(internal), incrementSeconds });
        return upstream.renewTtlSeconds === undefined ? undefined : { ttlSeconds: upstream.renewTtlSeconds };
      },
    },
    { type: 'fake_static', defaultTtlSeconds: 600, revoke },
  ];
  const credsPath = (pattern: string, type: string) =>
    definePath({
      pattern: `${pattern}/:role`,
      fields: {
        role: field.path({ description: 'Role name.' }),
        ttl: field.durationSeconds({ description: 'Requested TTL.', default: 0 }),
      },
      operations: {
        read: {
          summary: 'Create a user upstream and lease it.',
          handler: async ({ data }) => {
            const username = `${data.role}-${randomBytes(4).toString('hex')}`;
            const password = randomBytes(12).toString('base64url');
            upstream.live.set(username, password);
            return { secret: { type, data: { username, password }, internal: { username }, ttlSeconds: data.ttl } };
          },
        },
      },
      help: { synopsis: 'Lease a credential.', description: 'A fake credential for tests.' },
    });
  return (ctx) =>
    createBackend({
      type: 'fake-creds',
      storage: ctx.storage,
      help: 'Leases fake credentials (tests only).',
      secrets,
      paths: [credsPath('creds', 'fake_cred'), credsPath('static', 'fake_static')],
    });
}
