import type { Clock, Random } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { KeyCodesCache } from './key-codes.js';
import type { UsedCodes } from './used-codes.js';

/** What the TOTP paths share: injected time and randomness, the replay record, per-key locks. */
export interface TotpDeps {
  clock: Clock;
  random: Random;
  usedCodes: UsedCodes;
  /** Serialises validations of one key, so a code cannot pass twice in a race. */
  locks: KeyedMutex;
  /** Each key's decoded secret and the codes of its current window. */
  keyCodes: KeyCodesCache;
}
