import type { Lockout } from './lockout.js';
import type { PasswordHasher } from './passwords.js';

/** Shared by every path of a userpass mount. */
export interface UserpassDeps {
  hasher: PasswordHasher;
  lockout: Lockout;
}
