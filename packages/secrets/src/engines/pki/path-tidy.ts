import { definePath, field, type PathDefinition, type PeriodicTask } from '../../framework/index.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { type AcmeTidyCounts, tidyAcme } from './acme/acme-tidy.js';
import type { PkiDeps } from './deps.js';
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

type FullTidyStatus = TidyStatus & AcmeTidyCounts;

const NO_ACME_COUNTS: AcmeTidyCounts = {
  acme_orders_deleted_count: 0,
  acme_account_revoked_count: 0,
  acme_account_deleted_count: 0,
  total_acme_account_count: 0,
};

interface TidyOptions {
  tidy_cert_store: boolean;
  tidy_revoked_certs: boolean;
  safety_buffer: number;
  /** ACME orders, authorizations and accounts (acme/acme-tidy.ts). */
  tidy_acme: boolean;
  acme_account_safety_buffer: number;
}

interface AutoTidyConfig extends TidyOptions {
  enabled: boolean;
  interval_duration: number;
}

const AUTO_TIDY_KEY = 'config/auto-tidy';
const DEFAULT_AUTO_TIDY: AutoTidyConfig = {
  enabled: false,
  interval_duration: 12 * 3600,
  tidy_cert_store: false,
  tidy_revoked_certs: false,
  safety_buffer: 72 * 3600,
  tidy_acme: false,
  acme_account_safety_buffer: 30 * 24 * 3600,
};
const AUTO_TIDY_CHECK_MS = 60_000;

/** The last tidy of a mount (manual or automatic), as `tidy-status` shows it; one per backend. */
export class TidyState {
  status: FullTidyStatus = {
    state: 'Inactive',
    time_started: null,
    time_finished: null,
    cert_store_deleted_count: 0,
    revoked_cert_deleted_count: 0,
    error: null,
    ...NO_ACME_COUNTS,
  };
  lastRunMs = 0;
}

/**
 * Deletes certificates (and revocations) expired longer than `safety_buffer` ago, and with
 * `tidy_acme` old ACME orders and accounts; records the outcome in `state`.
 */
async function tidy(d: PkiDeps, storage: Storage, o: TidyOptions, state: TidyState): Promise<void> {
  const status: FullTidyStatus = {
    state: 'Running',
    time_started: new Date(d.clock.now()).toISOString(),
    time_finished: null,
    cert_store_deleted_count: 0,
    revoked_cert_deleted_count: 0,
    error: null,
    ...NO_ACME_COUNTS,
  };
  state.status = status;
  state.lastRunMs = d.clock.now();
  try {
    await d.locks.run('tidy', async () => {
      const cutoff = Math.floor(d.clock.now() / 1000) - o.safety_buffer;
      for (const serial of await pkiStore.certs(storage)) {
        const cert = await pkiStore.cert(storage, serial);
        if (!cert || cert.expiration === undefined || cert.expiration > cutoff) continue;
        const isRevoked = cert.revocation_time > 0;
        if (isRevoked ? !o.tidy_revoked_certs : !o.tidy_cert_store) continue;
        await pkiStore.deleteCert(storage, serial);
        if (isRevoked) {
          await pkiStore.unmarkRevoked(storage, serial);
          status.revoked_cert_deleted_count++;
        } else status.cert_store_deleted_count++;
      }
      if (status.revoked_cert_deleted_count > 0) await rebuildAllCrls(d, storage);
      if (o.tidy_acme) await tidyAcme(d, storage, o.safety_buffer, o.acme_account_safety_buffer, status);
    });
    status.state = 'Finished';
  } catch (err) {
    status.state = 'Error';
    status.error = err instanceof Error ? err.message : String(err);
  }
  status.time_finished = new Date(d.clock.now()).toISOString();
}

/** Runs the configured tidy once `interval_duration` has passed since the last one, while `config/auto-tidy` enables it. */
export function autoTidyTask(d: PkiDeps, storage: Storage, state: TidyState): PeriodicTask {
  return {
    name: 'pki auto-tidy',
    intervalMs: AUTO_TIDY_CHECK_MS,
    run: async () => {
      const config = { ...DEFAULT_AUTO_TIDY, ...(await getJson<Partial<AutoTidyConfig>>(storage, AUTO_TIDY_KEY)) };
      if (!config.enabled || d.clock.now() - state.lastRunMs < config.interval_duration * 1000) return;
      await tidy(d, storage, config, state);
    },
  };
}

const tidyFields = {
  tidy_cert_store: field.bool({ description: 'Delete expired certificates.' }),
  tidy_revoked_certs: field.bool({ description: 'Delete expired revoked certificates (and their CRL entries).' }),
  tidy_revoked_cert_issuer_associations: field.bool({ description: 'Accepted; associations are kept here.' }),
  tidy_expired_issuers: field.bool({ description: 'Accepted; issuers are not tidied here.' }),
  safety_buffer: field.durationSeconds({ description: 'How long past expiry a certificate is kept (default 72h).' }),
  tidy_acme: field.bool({ description: 'Tidy ACME orders, authorizations and accounts.' }),
  acme_account_safety_buffer: field.durationSeconds({
    description:
      'How long an idle ACME account is kept before it is revoked, and a revoked one before it is deleted (default 720h).',
  }),
  pause_duration: field.string({ description: 'Accepted; there is no pause here.' }),
};

/** `tidy` (runs at once; answers 202 as established), `tidy-status`, and `config/auto-tidy` (run by a periodic task). */
export function pathTidy(d: PkiDeps, state: TidyState): PathDefinition[] {
  return [
    definePath({
      pattern: 'tidy',
      fields: tidyFields,
      operations: {
        update: {
          summary: 'Tidy the certificate store.',
          handler: async ({ storage, data }) => {
            await tidy(
              d,
              storage,
              {
                tidy_cert_store: data.tidy_cert_store ?? false,
                tidy_revoked_certs: data.tidy_revoked_certs ?? false,
                safety_buffer: data.safety_buffer ?? DEFAULT_AUTO_TIDY.safety_buffer,
                tidy_acme: data.tidy_acme ?? false,
                acme_account_safety_buffer:
                  data.acme_account_safety_buffer ?? DEFAULT_AUTO_TIDY.acme_account_safety_buffer,
              },
              state,
            );
            const warning =
              "Tidy operation successfully started. Any information from the operation will be printed to Vault's server logs.";
            return { data: null, warnings: [warning], status: 202 };
          },
        },
      },
      help: { synopsis: 'Tidy the certificate store.', description: 'tidy-status shows the outcome.' },
    }),
    definePath({
      pattern: 'tidy-status',
      fields: {},
      operations: {
        read: { summary: 'Read the last tidy’s outcome.', handler: async () => ({ data: { ...state.status } }) },
      },
      help: { synopsis: 'Tidy status.', description: 'Of this server since it started.' },
    }),
    definePath({
      pattern: 'config/auto-tidy',
      fields: {
        ...tidyFields,
        enabled: field.bool({ description: 'Run tidy every interval_duration.' }),
        interval_duration: field.durationSeconds({ description: 'Time between automatic tidies (default 12h).' }),
      },
      operations: {
        read: {
          summary: 'Read the auto-tidy configuration.',
          handler: async ({ storage }) => ({
            data: { ...DEFAULT_AUTO_TIDY, ...(await getJson<Partial<AutoTidyConfig>>(storage, AUTO_TIDY_KEY)) },
          }),
        },
        update: {
          summary: 'Set the auto-tidy configuration.',
          handler: async ({ storage, data, supplied }) => {
            const config: AutoTidyConfig = {
              ...DEFAULT_AUTO_TIDY,
              ...(await getJson<Partial<AutoTidyConfig>>(storage, AUTO_TIDY_KEY)),
            };
            for (const key of Object.keys(DEFAULT_AUTO_TIDY) as (keyof AutoTidyConfig)[])
              if (supplied.has(key) && data[key] !== undefined)
                (config as unknown as Record<string, unknown>)[key] = data[key];
            await putJson(storage, AUTO_TIDY_KEY, config);
            return { data: { ...config } };
          },
        },
      },
      help: { synopsis: 'Auto-tidy configuration.', description: 'Checked every minute while the server is active.' },
    }),
  ];
}
