import type { Clock, Random } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { Lockout } from '../common/index.js';
import type { RoleStore } from './role-store.js';
import type { SecretIdStore } from './secret-id-store.js';

/** Shared by every path of an AppRole mount. */
export interface AppRoleDeps {
  clock: Clock;
  random: Random;
  roles: RoleStore;
  secretIds: SecretIdStore;
  /** Failed logins per role id (as established, AppRole locks out like userpass). */
  lockout: Lockout;
  /** Serialises role writes under one key, so two roles can never claim the same role id. */
  roleLocks: KeyedMutex;
}
