import type { Clock, Random } from '@ward/base';
import { definePath, field, type PathDefinition, type SecretType, type SystemView } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type AzureEngineRole, azureStore, type CreatedApp } from './azure-store.js';
import { clientsFor } from './clients.js';
import type { AzureAccess } from './clouds.js';
import { randomUuid } from './ids.js';
import { createServicePrincipalApp, deleteApp, removePassword } from './service-principals.js';

/** A new application and service principal per credential: revoking deletes them. */
export const SERVICE_PRINCIPAL = 'service_principal';
/** A password of an application that outlives the credential: revoking removes the password. */
export const STATIC_SERVICE_PRINCIPAL = 'static_service_principal';

export interface CredsDeps {
  access: AzureAccess;
  clock: Clock;
  random: Random;
  system: SystemView;
}

interface LeaseInternal {
  role: string;
  issued_ms: number;
  app_object_id: string;
  /** Static: the password to remove. */
  key_id?: string;
  /** Dynamic: everything created. */
  created?: CreatedApp;
}

const leaseTtl = (role: AzureEngineRole) =>
  role.max_ttl ? Math.min(role.ttl || role.max_ttl, role.max_ttl) : role.ttl;

/** `creds/:role`: a client id and secret under a lease. */
export function pathCreds(d: CredsDeps): PathDefinition {
  return definePath({
    pattern: 'creds/:role',
    fields: { role: field.path({ description: 'The role.' }) },
    operations: {
      read: {
        summary: 'Issue a service principal credential.',
        handler: async ({ storage, data }) => {
          const role = await azureStore.role(storage, data.role);
          if (!role) throw new NotFoundError('');
          const c = await clientsFor(d.access, storage);
          const issuedMs = d.clock.now();
          // The password lives as long as the lease can: Azure ends it even if a revocation never runs.
          const lifetimeSeconds = role.max_ttl || d.system.maxLeaseTtlSeconds();
          const passwordName = `ward-${data.role}-${randomUuid(d.random)}`;
          const expires = new Date(issuedMs + lifetimeSeconds * 1000);
          const existing = role.application_object_id || role.managed_app?.object_id;
          if (existing) {
            const app = await c.graph.getApplication(existing);
            const password = await c.graph.addPassword(app.id, passwordName, expires);
            const internal: LeaseInternal = {
              role: data.role,
              issued_ms: issuedMs,
              app_object_id: app.id,
              key_id: password.keyId,
            };
            return secret(STATIC_SERVICE_PRINCIPAL, app.appId, password.secretText, internal, leaseTtl(role));
          }
          const created = await createServicePrincipalApp(c, role, data.role, d);
          try {
            const password = await c.graph.addPassword(created.object_id, passwordName, expires);
            const internal: LeaseInternal = {
              role: data.role,
              issued_ms: issuedMs,
              app_object_id: created.object_id,
              created,
            };
            return secret(SERVICE_PRINCIPAL, created.app_id, password.secretText, internal, leaseTtl(role));
          } catch (err) {
            await deleteApp(c, created).catch(() => undefined);
            throw err;
          }
        },
      },
    },
    help: {
      synopsis: 'Issue an Azure service principal credential.',
      description:
        'Answers client_id and client_secret. Azure failures are a 502 and leave nothing behind. Revoking the ' +
        'lease deletes the application (dynamic roles) or the password (application_object_id, persist_app).',
    },
  });
}

function secret(type: string, clientId: string, clientSecret: string, internal: LeaseInternal, ttlSeconds: number) {
  return {
    secret: {
      type,
      data: { client_id: clientId, client_secret: clientSecret },
      internal: internal as unknown as Record<string, unknown>,
      ttlSeconds,
    },
  };
}

/** Renewal re-reads the role: its max_ttl, counted from issue, caps the lease. */
function renewUnderRole(clock: Clock) {
  return async ({
    storage,
    internal,
    incrementSeconds,
  }: {
    storage: Storage;
    internal: Record<string, unknown>;
    incrementSeconds: number;
  }) => {
    const lease = internal as unknown as LeaseInternal;
    const role = await azureStore.role(storage, lease.role);
    if (!role) throw new InvalidRequestError('unable to renew: role does not exist');
    let ttl = incrementSeconds || role.ttl;
    if (role.max_ttl) {
      const left = Math.floor((lease.issued_ms + role.max_ttl * 1000 - clock.now()) / 1000);
      if (left <= 0) throw new InvalidRequestError('lease has reached the max_ttl of its role');
      ttl = Math.min(ttl || left, left);
    }
    return ttl ? { ttlSeconds: ttl } : undefined;
  };
}

/** The two lease types; a revocation that Azure fails is retried by the core (502 when asked for). */
export function credsSecrets(d: CredsDeps): SecretType[] {
  return [
    {
      type: SERVICE_PRINCIPAL,
      renew: renewUnderRole(d.clock),
      async revoke({ storage, internal }) {
        const lease = internal as unknown as LeaseInternal;
        if (lease.created) await deleteApp(await clientsFor(d.access, storage), lease.created);
      },
    },
    {
      type: STATIC_SERVICE_PRINCIPAL,
      renew: renewUnderRole(d.clock),
      async revoke({ storage, internal }) {
        const lease = internal as unknown as LeaseInternal;
        if (lease.key_id) await removePassword(await clientsFor(d.access, storage), lease.app_object_id, lease.key_id);
      },
    },
  ];
}
