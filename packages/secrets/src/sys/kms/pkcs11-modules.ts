import { createHash, timingSafeEqual } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import { UpstreamError } from '../../logical/errors.js';

/**
 * The PKCS#11 libraries this server has opened, by path. A library can be initialised once per
 * process (a second `C_Initialize`, even from another `PKCS11` object, answers
 * CKR_CRYPTOKI_ALREADY_INITIALIZED), so every managed key on one library shares its object.
 * Built at the composition root; two servers in one process (tests) each have one, which is why
 * that answer counts as success.
 */
export class Pkcs11Modules {
  readonly #loaded = new Map<string, pkcs11js.PKCS11>();
  /** SHA-256 of the PIN each token (library path + slot) was logged in with. */
  readonly #loggedIn = new Map<string, Buffer>();

  /** The initialised library at `path`; an `UpstreamError` with the loader's message if it cannot be loaded. */
  open(path: string): pkcs11js.PKCS11 {
    const known = this.#loaded.get(path);
    if (known) return known;
    const module = new pkcs11js.PKCS11();
    try {
      module.load(path);
    } catch (err) {
      throw new UpstreamError(`error loading PKCS#11 library ${path}: ${messageOf(err)}`, { cause: err });
    }
    try {
      // Signing runs on libuv's threads: without CKF_OS_LOCKING_OK a library may assume one
      // thread (SoftHSM then takes no locks, and concurrent signs corrupt its heap).
      module.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
    } catch (err) {
      if (!messageOf(err).includes('CKR_CRYPTOKI_ALREADY_INITIALIZED')) {
        throw new UpstreamError(`error initialising PKCS#11 library ${path}: ${messageOf(err)}`, { cause: err });
      }
    }
    this.#loaded.set(path, module);
    return module;
  }

  /**
   * Logs `session` in as the user. Login is per token and process: once one session logged in,
   * every later C_Login answers CKR_USER_ALREADY_LOGGED_IN whatever the PIN, so a wrong PIN
   * would pass unnoticed. The PIN of the first login is remembered (hashed) and later ones
   * are compared with it, in constant time.
   */
  login(path: string, slot: Buffer, session: Buffer, pin: string): void {
    const module = this.open(path);
    const token = `${path}#${slot.toString('hex')}`;
    const pinHash = createHash('sha256').update(pin).digest();
    try {
      module.C_Login(session, pkcs11js.CKU_USER, pin);
      this.#loggedIn.set(token, pinHash);
    } catch (err) {
      if (!messageOf(err).includes('CKR_USER_ALREADY_LOGGED_IN')) throw err;
      const known = this.#loggedIn.get(token);
      if (known && !timingSafeEqual(known, pinHash)) throw new Error('CKR_PIN_INCORRECT');
    }
  }
}

/** The slot whose number is `slot`, or whose token is labelled `tokenLabel`. */
export function findSlot(module: pkcs11js.PKCS11, where: { slot?: bigint; tokenLabel?: string }): Buffer {
  for (const handle of module.C_GetSlotList(true)) {
    if (where.slot !== undefined) {
      if (handle.readBigUInt64LE(0) === where.slot) return handle;
      continue;
    }
    // Token labels are blank-padded to 32 characters.
    if (module.C_GetTokenInfo(handle).label.trimEnd() === where.tokenLabel) return handle;
  }
  const wanted = where.slot !== undefined ? `slot ${where.slot}` : `token labelled "${where.tokenLabel}"`;
  throw new UpstreamError(`PKCS#11: no ${wanted} with a token present`);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
