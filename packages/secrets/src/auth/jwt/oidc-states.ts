import { createHash } from 'node:crypto';
import type { Clock, Random } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** How long a started OIDC login may take to come back to the callback (the established 10 minutes). */
const STATE_TTL_MS = 10 * 60 * 1000;
/** Started logins kept at most after a sweep; beyond, those expiring first go (unauthenticated callers start them). */
const MAX_STATES = 10_000;
/** How often the mount's periodic task deletes expired flows (a flow is refused once expired, swept or not). */
export const STATE_SWEEP_INTERVAL_MS = 60_000;
const PREFIX = 'oidc_state/';
/** What a state id looks like: anything else is unknown without a storage read (and never a storage key). */
const STATE_ID = /^st_[A-Za-z0-9_-]{27}$/;

/** One started authorization-code flow, found again by its `state`. */
export interface OidcState {
  roleName: string;
  redirectUri: string;
  nonce: string;
  /** The PKCE verifier whose S256 challenge went in the authorization URL. */
  codeVerifier: string;
  clientNonce: string;
  expiresAtMs: number;
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * The flows started at `oidc/auth_url` and not yet finished: each `state` is used once and
 * expires after ten minutes. Kept in the mount's storage (behind the barrier), so a callback
 * reaching any server or worker sharing the storage finds the flow another one started
 * (issue 31). The established method keeps them in memory and forwards the callback to the
 * active server instead; here a performance standby reads the flow, and its deletion (a write)
 * hands the callback over to the active server, which finishes it.
 */
export class OidcStates {
  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** A new flow, stored: its state id, nonce and PKCE challenge (S256). */
  async start(
    storage: Storage,
    roleName: string,
    redirectUri: string,
    clientNonce: string,
  ): Promise<{ state: string; nonce: string; challenge: string }> {
    const state = `st_${base64url(this.random.bytes(20))}`;
    const nonce = `n_${base64url(this.random.bytes(20))}`;
    const codeVerifier = base64url(this.random.bytes(32));
    const flow: OidcState = {
      roleName,
      redirectUri,
      nonce,
      codeVerifier,
      clientNonce,
      expiresAtMs: this.clock.now() + STATE_TTL_MS,
    };
    await putJson(storage, PREFIX + state, flow);
    const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
    return { state, nonce, challenge };
  }

  /** The flow of `state`, deleted (each is used once); `undefined` when unknown or expired. */
  async take(storage: Storage, state: string): Promise<OidcState | undefined> {
    if (!STATE_ID.test(state)) return undefined;
    const found = await getJson<OidcState>(storage, PREFIX + state);
    if (!found) return undefined;
    await storage.delete(PREFIX + state);
    return found.expiresAtMs <= this.clock.now() ? undefined : found;
  }

  /** Deletes the expired flows, and the ones expiring first beyond `MAX_STATES`: the periodic task. */
  async sweep(storage: Storage): Promise<void> {
    const now = this.clock.now();
    const live: Array<{ id: string; expiresAtMs: number }> = [];
    for (const id of await storage.list(PREFIX)) {
      const flow = await getJson<OidcState>(storage, PREFIX + id);
      if (!flow) continue;
      if (flow.expiresAtMs <= now) await storage.delete(PREFIX + id);
      else live.push({ id, expiresAtMs: flow.expiresAtMs });
    }
    if (live.length <= MAX_STATES) return;
    live.sort((a, b) => a.expiresAtMs - b.expiresAtMs);
    for (const { id } of live.slice(0, live.length - MAX_STATES)) await storage.delete(PREFIX + id);
  }
}
