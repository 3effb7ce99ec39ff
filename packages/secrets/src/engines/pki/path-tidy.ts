import { definePath, field, type PathDefinition } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './backend.js';
import { pkiStore } from './pki-store.js';
import { rebuildAllCrls } from './revocation.js';

interface TidyStatus {
  state: 'Inactive' | 'Running' | 'Finished' | 'Error';
  time_started: string | null;
  time_finished: string | null;
  cert_store_deleted_count: number;
  revoked_cert_deleted_count: number;
  error: string | null;
}

/** Deletes certificates (and revocations) expired longer than `safetyBufferSeconds` ago. */
async function tidy(
  d: PkiDeps,
  storage: Storage,
  o: { certStore: boolean; revoked: boolean; safetyBufferSeconds: number },
  status: TidyStatus,
) {
  const cutoff = Math.floor(d.clock.now() / 1000) - o.safetyBufferSeconds;
  for (const serial of await pkiStore.certs(storage)) {
    const cert = await pkiStore.cert(storage, serial);
    if (!cert || cert.expiration === undefined || cert.expiration > cutoff) continue;
    const isRevoked = cert.revocation_time > 0;
    if (isRevoked ? !o.revoked : !o.certStore) continue;
    await pkiStore.deleteCert(storage, serial);
    if (isRevoked) {
      await pkiStore.unmarkRevoked(storage, serial);
      status.revoked_cert_deleted_count++;
    } else status.cert_store_deleted_count++;
  }
  if (status.revoked_cert_deleted_count > 0) await rebuildAllCrls(d, storage);
}

/** `tidy` (runs at once; answers 202 as established), `tidy-status`, and `config/auto-tidy` (kept, shown). */
export function pathTidy(d: PkiDeps): PathDefinition[] {
  let status: TidyStatus = {
    state: 'Inactive',
    time_started: null,
    time_finished: null,
    cert_store_deleted_count: 0,
    revoked_cert_deleted_count: 0,
    error: null,
  };
  const tidyFields = {
    tidy_cert_store: field.bool({ description: 'Delete expired certificates.', default: false }),
    tidy_revoked_certs: field.bool({
      description: 'Delete expired revoked certificates (and their CRL entries).',
      default: false,
    }),
    tidy_revoked_cert_issuer_associations: field.bool({
      description: 'Accepted; associations are kept here.',
      default: false,
    }),
    tidy_expired_issuers: field.bool({ description: 'Accepted; issuers are not tidied here.', default: false }),
    safety_buffer: field.durationSeconds({
      description: 'How long past expiry a certificate is kept (default 72h).',
      default: 72 * 3600,
    }),
    pause_duration: field.string({ description: 'Accepted; there is no pause here.', default: '0s' }),
  };
  return [
    definePath({
      pattern: 'tidy',
      fields: tidyFields,
      operations: {
        update: {
          summary: 'Tidy the certificate store.',
          handler: async ({ storage, data }) => {
            status = {
              ...status,
              state: 'Running',
              time_started: new Date(d.clock.now()).toISOString(),
              time_finished: null,
              cert_store_deleted_count: 0,
              revoked_cert_deleted_count: 0,
              error: null,
            };
            const run = status;
            try {
              await d.locks.run('tidy', () =>
                tidy(
                  d,
                  storage,
                  {
                    certStore: data.tidy_cert_store,
                    revoked: data.tidy_revoked_certs,
                    safetyBufferSeconds: data.safety_buffer,
                  },
                  run,
                ),
              );
              run.state = 'Finished';
            } catch (err) {
              run.state = 'Error';
              run.error = err instanceof Error ? err.message : String(err);
            }
            run.time_finished = new Date(d.clock.now()).toISOString();
            return {
              data: null,
              warnings: [
                "Tidy operation successfully started. Any information from the operation will be printed to Vault's server logs.",
              ],
              status: 202,
            };
          },
        },
      },
      help: { synopsis: 'Tidy the certificate store.', description: 'tidy-status shows the outcome.' },
    }),
    definePath({
      pattern: 'tidy-status',
      fields: {},
      operations: {
        read: { summary: 'Read the last tidy’s outcome.', handler: async () => ({ data: { ...status } }) },
      },
      help: { synopsis: 'Tidy status.', description: 'Of this server since it started.' },
    }),
    definePath({
      pattern: 'config/auto-tidy',
      fields: {
        ...tidyFields,
        enabled: field.bool({ description: 'Kept and shown; tidy runs only when asked here.', default: false }),
        interval_duration: field.durationSeconds({ description: 'Kept and shown.', default: 12 * 3600 }),
      },
      operations: {
        read: {
          summary: 'Read the auto-tidy configuration.',
          handler: async ({ storage }) => ({
            data: (await storage.get('config/auto-tidy'))
              ? JSON.parse(Buffer.from((await storage.get('config/auto-tidy')) ?? []).toString())
              : { enabled: false, interval_duration: 43200 },
          }),
        },
        update: {
          summary: 'Set the auto-tidy configuration.',
          handler: async ({ storage, data }) => {
            await storage.put('config/auto-tidy', Buffer.from(JSON.stringify(data)));
            return { data: { ...data } };
          },
        },
      },
      help: { synopsis: 'Auto-tidy configuration.', description: 'Kept for clients; no automatic tidy runs here.' },
    }),
  ];
}
