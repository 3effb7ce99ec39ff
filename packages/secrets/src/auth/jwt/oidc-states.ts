import { createHash } from 'node:crypto';
import type { Clock, Random } from '@ward/base';

/** How long a started OIDC login may take to come back to the callback (the established 10 minutes). */
const STATE_TTL_MS = 10 * 60 * 1000;
/** Started logins kept at most; beyond, the oldest is dropped (unauthenticated callers start them). */
const MAX_STATES = 10_000;

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
 * expires after ten minutes. Kept in memory, as the established method keeps them: a flow
 * started on one server must come back to the same server (or be started again).
 */
export class OidcStates {
  readonly #states = new Map<string, OidcState>();

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** A new flow: its state id, nonce and PKCE challenge (S256). */
  start(
    roleName: string,
    redirectUri: string,
    clientNonce: string,
  ): { state: string; nonce: string; challenge: string } {
    this.#sweep();
    const state = `st_${base64url(this.random.bytes(20))}`;
    const nonce = `n_${base64url(this.random.bytes(20))}`;
    const codeVerifier = base64url(this.random.bytes(32));
    this.#states.set(state, {
      roleName,
      redirectUri,
      nonce,
      codeVerifier,
      clientNonce,
      expiresAtMs: this.clock.now() + STATE_TTL_MS,
    });
    const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
    return { state, nonce, challenge };
  }

  /** The flow of `state`, removed (each is used once); `undefined` when unknown or expired. */
  take(state: string): OidcState | undefined {
    const found = this.#states.get(state);
    this.#states.delete(state);
    if (!found || found.expiresAtMs <= this.clock.now()) return undefined;
    return found;
  }

  #sweep(): void {
    const now = this.clock.now();
    for (const [id, s] of this.#states) if (s.expiresAtMs <= now) this.#states.delete(id);
    // Map keeps insertion order: the first keys are the oldest.
    for (const id of this.#states.keys()) {
      if (this.#states.size < MAX_STATES) break;
      this.#states.delete(id);
    }
  }
}
