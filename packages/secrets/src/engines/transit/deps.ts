import type { Random } from '@ward/base';
import type { KeyedMutex, ManagedKeyRef, ManagedKeySigner } from '../../framework/index.js';

/** What the transit paths share: the mount's managed keys (already checked against `allowed_managed_keys`), randomness, time. */
export interface TransitDeps {
  random: Random;
  /** Now, RFC 3339 (creation times of keys and versions). */
  now(): string;
  /** Serialises the changes of one key (create, rotate, config, delete). */
  locks: KeyedMutex;
  managedKey(ref: ManagedKeyRef): Promise<ManagedKeySigner>;
}
