import type { IdentityStore } from '../core/identity/index.js';

/** An auth mount of the namespace, as aliases show it. */
export interface AuthMountInfo {
  accessor: string;
  type: string;
  /** Relative to the namespace: `auth/userpass/`. */
  path: string;
  local: boolean;
}

/** Shared by every path of the identity backend. */
export interface IdentityDeps {
  store: IdentityStore;
  /** The namespace's auth mounts now (aliases show their mount only while it exists). */
  authMount(accessor: string): AuthMountInfo | undefined;
  /** `n` random bytes (MFA secrets). */
  random(n: number): Uint8Array;
}
