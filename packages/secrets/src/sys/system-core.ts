import type { ExpirationManager } from '../core/expiration/index.js';
import type { PolicyStore } from '../core/policy/policy-store.js';
import type { MountEntry } from '../core/router/mount-table.js';
import type { MountManager } from '../core/router/mounts.js';
import type { TokenPolicyResolver } from './path-capabilities.js';

/** The part of the core the system backend may use; it never imports `Core` itself. */
export interface SystemCore {
  mounts: MountManager;
  /** Version string reported in mount listings (`running_plugin_version`). */
  version: string;
  seal(): Promise<void>;
  rotateKeyring(): Promise<void>;
  keyStatus(): { term: number; installTimeMs: number; encryptions: number };
  /** Built-in mounts shown in listings though they are not in the table (`sys/`). */
  builtinMounts(): MountEntry[];
  policies(): PolicyStore;
  expiration: ExpirationManager;
  tokenPolicyResolver(): TokenPolicyResolver;
  /** Built-in auth methods (`token/`). */
  builtinAuthMounts(): MountEntry[];
}
