import type { Lockout } from '../common/index.js';
import type { PasswordHasher } from './passwords.js';

/** Shared by every path of a userpass mount. */
export interface UserpassDeps {
  hasher: PasswordHasher;
  lockout: Lockout;
}
