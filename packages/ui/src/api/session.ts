import type { SecretAuth } from '@ward/secrets-client';
import type { ApiSession } from './api.js';
import type { BrowserClock } from './clock.js';

/** Who is signed in: kept in `sessionStorage` (this tab only), never in a cookie or `localStorage`. */
export interface SessionData {
  token: string;
  accessor: string;
  namespace: string;
  /** How the token was obtained (`token`, `userpass`, …), for the header. */
  method: string;
  displayName: string;
  policies: string[];
  renewable: boolean;
  /** The token's TTL at its last login or renewal; 0 = it does not expire. */
  ttlSeconds: number;
  /** When the token expires; null = never. */
  expiresAtMs: number | null;
  renewedAtMs: number;
}

export type SignOutReason = 'signed-out' | 'expired' | 'refused';

const KEY = 'ward.session';

/**
 * The signed-in token and what the app knows of it. It drops itself when the token expires, and
 * renews a renewable token while the page is used (on a call made after half its TTL has passed,
 * as the established UI does).
 */
export class Session implements ApiSession {
  #data: SessionData | undefined;
  #pendingNamespace = '';
  #lastReason: SignOutReason | undefined;
  #expiry: (() => void) | undefined;
  #isRenewing = false;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly storage: Storage,
    private readonly clock: BrowserClock,
    private readonly renewSelf: (token: string) => Promise<SecretAuth | null | undefined>,
  ) {
    const stored = storage.getItem(KEY);
    const data = stored ? parseSession(stored) : undefined;
    if (data && (data.expiresAtMs === null || data.expiresAtMs > clock.now())) this.#set(data);
    else storage.removeItem(KEY);
  }

  get data(): SessionData | undefined {
    return this.#data;
  }

  /** Why the last session ended (shown on the sign-in screen), until the next sign-in. */
  get lastReason(): SignOutReason | undefined {
    return this.#lastReason;
  }

  token(): string | undefined {
    return this.#data?.token;
  }

  namespace(): string {
    return this.#data?.namespace ?? this.#pendingNamespace;
  }

  /** The namespace typed on the sign-in screen, used by the login call itself. */
  setPendingNamespace(namespace: string): void {
    this.#pendingNamespace = namespace;
  }

  signIn(data: SessionData): void {
    this.#lastReason = undefined;
    this.#set(data);
  }

  signOut(reason: SignOutReason = 'signed-out'): void {
    this.#lastReason = reason;
    this.#set(undefined);
  }

  onRefused(): void {
    // A 403 can be the ACL refusing one path: only a token the server no longer knows ends the session.
    const token = this.#data?.token;
    if (!token) return;
    fetch('/v1/auth/token/lookup-self', {
      headers: { 'X-Vault-Token': token, 'X-Vault-Namespace': this.namespace() },
      credentials: 'omit',
    }).then((res) => {
      if (res.status === 403 && this.#data?.token === token) this.signOut('refused');
    });
  }

  onUsed(): void {
    const data = this.#data;
    if (!data?.renewable || data.ttlSeconds === 0 || this.#isRenewing) return;
    if (this.clock.now() < data.renewedAtMs + (data.ttlSeconds * 1000) / 2) return;
    this.#isRenewing = true;
    this.renewSelf(data.token)
      .then((auth) => {
        if (!auth || this.#data?.token !== data.token) return;
        this.#set({ ...data, ...lifetimeOf(auth, this.clock.now()) });
      })
      .catch(() => undefined)
      .finally(() => {
        this.#isRenewing = false;
      });
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(data: SessionData | undefined): void {
    this.#data = data;
    this.#expiry?.();
    this.#expiry = undefined;
    if (data) {
      this.storage.setItem(KEY, JSON.stringify(data));
      if (data.expiresAtMs !== null) {
        this.#expiry = this.clock.setTimeout(() => this.signOut('expired'), data.expiresAtMs - this.clock.now());
      }
    } else {
      this.storage.removeItem(KEY);
    }
    for (const l of this.#listeners) l();
  }
}

/** The lifetime fields of a session from a login's or renewal's `auth` block. */
export function lifetimeOf(auth: Pick<SecretAuth, 'lease_duration' | 'renewable'>, nowMs: number) {
  return {
    renewable: auth.renewable,
    ttlSeconds: auth.lease_duration,
    expiresAtMs: auth.lease_duration > 0 ? nowMs + auth.lease_duration * 1000 : null,
    renewedAtMs: nowMs,
  };
}

function parseSession(text: string): SessionData | undefined {
  try {
    const data = JSON.parse(text) as SessionData;
    return typeof data.token === 'string' && typeof data.renewedAtMs === 'number' ? data : undefined;
  } catch {
    return undefined;
  }
}
