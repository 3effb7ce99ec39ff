import type { Clock } from '@ward/base';
import { type GoogleApis, type GoogleEndpoints, googleApis } from './apis.js';
import { googleAuthClient } from './auth-client.js';
import type { ServiceAccountCredentials } from './credentials.js';

/**
 * The SDK clients of a mount's current configuration, kept while it does not change so the
 * account's access token is reused across requests; a changed configuration gets new ones.
 */
export class GoogleClientCache {
  private current: { fingerprint: string; apis: GoogleApis } | undefined;

  constructor(private readonly clock: Clock) {}

  apis(credentials: ServiceAccountCredentials | undefined, endpoints: GoogleEndpoints): GoogleApis {
    const fingerprint = JSON.stringify([credentials ?? null, endpoints]);
    if (this.current?.fingerprint !== fingerprint)
      this.current = { fingerprint, apis: googleApis(googleAuthClient(credentials, this.clock), endpoints) };
    return this.current.apis;
  }
}
