import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Bucket, StorageOptions } from '@google-cloud/storage';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { type SnapshotConfig, specificValue } from '../snapshot-auto/config.js';
import type { SnapshotTarget, StoredSnapshot } from './snapshot-target.js';

export interface GcsTargetSettings {
  bucket: string;
  /** Object-name prefix (`path_prefix`), ending in `/`; leading `/`s are dropped (GCS names are not paths). */
  pathPrefix: string;
  /** A service-account key as JSON text; empty: the SDK's application default credentials. */
  serviceAccountKey: string;
  /** Host (`127.0.0.1:4443`) or URL of a non-Google implementation; empty: Google's. */
  endpoint: string;
  /** Plain HTTP to `endpoint` (testing only). */
  isTlsDisabled: boolean;
}

/** The settings of a `gamma-gcs` / `google-gcs` config, whichever spelling its fields were written with. */
export function gcsSettingsOf(config: SnapshotConfig): GcsTargetSettings {
  const text = (suffix: string) => {
    const value = specificValue(config, suffix);
    return typeof value === 'string' ? value : '';
  };
  return {
    bucket: text('gcs_bucket'),
    pathPrefix: config.path_prefix,
    serviceAccountKey: text('service_account_key'),
    endpoint: text('endpoint'),
    isTlsDisabled: specificValue(config, 'disable_tls') === true,
  };
}

/**
 * `storage_type "gamma-gcs"` (`google-gcs`): objects in a Cloud Storage bucket through
 * `@google-cloud/storage`. Uploads are resumable uploads streamed in one request, so no object
 * exists until the last byte is in, and memory stays flat whatever the snapshot's size; the SDK
 * checks the upload against the CRC32C the service reports.
 */
export function createGcsTarget(settings: GcsTargetSettings): SnapshotTarget {
  // The SDK is loaded on first use: a server without a GCS config never pays its ~100 ms import.
  let opened: Promise<Bucket> | undefined;
  const bucket = () => {
    opened ??= import('@google-cloud/storage').then(({ Storage }) => {
      const storage = new Storage(storageOptions(settings));
      // With a key: a self-signed JWT carrying the scopes (which Google's APIs accept from service
      // accounts) rather than a token exchange with Google's OAuth endpoint before the first request.
      if (settings.serviceAccountKey) storage.authClient.useJWTAccessWithScope = true;
      return storage.bucket(settings.bucket);
    });
    return opened;
  };
  const prefix = settings.pathPrefix.replace(/^\/+/, '');
  const where = (name: string) => `gs://${settings.bucket}/${prefix}${name}`;
  return {
    async put(name, body) {
      const file = (await bucket()).file(`${prefix}${name}`);
      // No precondition, so the SDK does not retry the upload: its retry of a streamed upload tries
      // to resume from bytes it did not keep and fails with an 'error' event nobody can listen to.
      // A failed attempt is reported in the status; the next interval tries again.
      const upload = file.createWriteStream({ resumable: true });
      await upstream(`upload of ${where(name)}`, pipeline(Readable.from(body), upload));
      return { url: where(name), size: Number(file.metadata.size) };
    },
    async list(namePrefix) {
      const listing = (await bucket()).getFiles({ prefix: `${prefix}${namePrefix}`, autoPaginate: true });
      const [files] = await upstream(`list of ${where(namePrefix)}*`, listing);
      const found: StoredSnapshot[] = files.map((f) => ({
        name: f.name.slice(prefix.length),
        size: Number(f.metadata.size),
      }));
      return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async delete(name) {
      const removal = (await bucket()).file(`${prefix}${name}`).delete({ ignoreNotFound: true });
      await upstream(`delete of ${where(name)}`, removal);
    },
  };
}

function storageOptions(settings: GcsTargetSettings): StorageOptions {
  const options: StorageOptions = {};
  if (settings.serviceAccountKey) {
    // Checked when the config was written (`checkServiceAccountKey`).
    const key = JSON.parse(settings.serviceAccountKey) as {
      client_email: string;
      private_key: string;
      project_id?: string;
    };
    options.credentials = { client_email: key.client_email, private_key: key.private_key };
    if (key.project_id) options.projectId = key.project_id;
    // A key given for a custom endpoint is meant to be used there too (the SDK skips auth otherwise).
    options.useAuthWithCustomEndpoint = true;
  }
  if (settings.endpoint || settings.isTlsDisabled) {
    options.apiEndpoint = endpointUrl(settings.endpoint || 'storage.googleapis.com', settings.isTlsDisabled);
  }
  return options;
}

/** A 400 for an endpoint that is neither a host nor a URL, when the config is written. */
export function checkGcsSettings(settings: GcsTargetSettings): void {
  if (!settings.endpoint) return;
  try {
    endpointUrl(settings.endpoint, settings.isTlsDisabled);
  } catch {
    throw new InvalidRequestError(`gcs endpoint "${settings.endpoint}" is neither a host nor a URL`);
  }
}

function endpointUrl(endpoint: string, isTlsDisabled: boolean): string {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  if (isTlsDisabled) url.protocol = 'http:';
  return url.href.replace(/\/+$/, '');
}

/** A failed call, as an `UpstreamError` naming the object and carrying the service's own words. */
async function upstream<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const e = err as { message?: string; response?: { status?: number; data?: { error?: { message?: string } } } };
    const detail = e.response?.data?.error?.message ?? e.message ?? String(err);
    const status = e.response?.status ? ` (HTTP ${e.response.status})` : '';
    throw new UpstreamError(`gcs ${what} failed: ${detail}${status}`, { cause: err });
  }
}
