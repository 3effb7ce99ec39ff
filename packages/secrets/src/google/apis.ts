import {
  cloudresourcemanager,
  type cloudresourcemanager_v1,
  type cloudresourcemanager_v2,
} from '@googleapis/cloudresourcemanager';
import { compute, type compute_v1 } from '@googleapis/compute';
import { iam, type iam_v1 } from '@googleapis/iam';
import { iamcredentials, type iamcredentials_v1 } from '@googleapis/iamcredentials';
import type { AuthClient } from 'google-auth-library';
import { UpstreamError } from '../logical/errors.js';

/**
 * Base URLs of Google's APIs (`custom_endpoint`), for private endpoints and tests. Only the
 * origin is used; an absent one is Google's public host.
 */
export interface GoogleEndpoints {
  iam?: string;
  iamcredentials?: string;
  crm?: string;
  compute?: string;
}

/** The SDK clients one call needs, all with the same auth client. */
export interface GoogleApis {
  iam: iam_v1.Iam;
  iamCredentials: iamcredentials_v1.Iamcredentials;
  resourceManager: cloudresourcemanager_v1.Cloudresourcemanager;
  /** Folders live in Resource Manager v2. */
  folders: cloudresourcemanager_v2.Cloudresourcemanager;
  compute: compute_v1.Compute;
}

const rootOf = (url: string | undefined) => (url ? { rootUrl: `${new URL(url).origin}/` } : {});

export function googleApis(auth: AuthClient, endpoints: GoogleEndpoints): GoogleApis {
  // The clients type their `auth` with googleapis-common's own copy of google-auth-library.
  const a = auth as never;
  return {
    iam: iam({ version: 'v1', auth: a, ...rootOf(endpoints.iam) }),
    iamCredentials: iamcredentials({ version: 'v1', auth: a, ...rootOf(endpoints.iamcredentials) }),
    resourceManager: cloudresourcemanager({ version: 'v1', auth: a, ...rootOf(endpoints.crm) }),
    folders: cloudresourcemanager({ version: 'v2', auth: a, ...rootOf(endpoints.crm) }),
    compute: compute({ version: 'v1', auth: a, ...rootOf(endpoints.compute) }),
  };
}

/** The HTTP status of a failed SDK call (a `GaxiosError`), if Google answered at all. */
export function googleStatus(err: unknown): number | undefined {
  const e = err as { status?: unknown; response?: { status?: unknown } } | null;
  const status = e?.status ?? e?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Google's own message for a failed call (`{"error": {"message"}}`), else the error's. */
function googleMessage(err: unknown): string {
  const data = (err as { response?: { data?: unknown } } | null)?.response?.data as
    | { error?: { message?: unknown } | string }
    | undefined;
  const inner = typeof data?.error === 'object' ? data.error.message : data?.error;
  return typeof inner === 'string' && inner !== '' ? inner : (err as Error)?.message || String(err);
}

/** Runs an SDK call; a failure is a 502 naming what was attempted (callers first pick out 404s). */
export async function googleCall<T>(what: string, call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await call()).data;
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    const status = googleStatus(err);
    throw new UpstreamError(`${what} failed${status ? ` (${status})` : ''}: ${googleMessage(err)}`, { cause: err });
  }
}

/** As `googleCall`, but a 404 answers `undefined`. */
export async function googleFind<T>(what: string, call: () => Promise<{ data: T }>): Promise<T | undefined> {
  try {
    return (await call()).data;
  } catch (err) {
    if (googleStatus(err) === 404) return undefined;
    if (err instanceof UpstreamError) throw err;
    const status = googleStatus(err);
    throw new UpstreamError(`${what} failed${status ? ` (${status})` : ''}: ${googleMessage(err)}`, { cause: err });
  }
}
