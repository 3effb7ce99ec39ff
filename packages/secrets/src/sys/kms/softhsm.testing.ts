import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's SoftHSM2 module (package `softhsm2`, see system-packages.txt). */
export const SOFTHSM_LIBRARY = '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsmToken {
  label: string;
  pin: string;
  /** Slot number the token was reassigned to (decimal, as `slot` takes it). */
  slot: string;
}

export interface SoftHsm {
  /** Initialises one more token (user PIN `pin`, SO PIN 5678). */
  addToken(label: string, pin?: string): SoftHsmToken;
  /** Removes the token directory. */
  remove(): void;
}

/**
 * A throw-away SoftHSM2 token in a temp directory. SoftHSM reads SOFTHSM2_CONF at
 * `C_Initialize`, so this sets it for the whole process: call it before anything loads the
 * library, once per test file (node --test runs each file in its own process). Child processes
 * (`bin/ward`) inherit it.
 */
export function createSoftHsm(): SoftHsm {
  const dir = mkdtempSync(join(tmpdir(), 'ward-softhsm-'));
  mkdirSync(join(dir, 'tokens'));
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(
    conf,
    `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`,
  );
  process.env.SOFTHSM2_CONF = conf;
  const addToken = (label: string, pin = '1234'): SoftHsmToken => {
    const out = execFileSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', '5678'],
      { encoding: 'utf8', env: process.env },
    );
    const slot = /reassigned to slot (\d+)/.exec(out)?.[1];
    if (!slot) throw new Error(`softhsm2-util did not say which slot the token is in: ${out}`);
    return { label, pin, slot };
  };
  return { addToken, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The body of `sys/managed-keys/pkcs11/<name>` for the key `keyLabel` on `token` (kms_library
 * `softhsm`, generated on first use); `extra` adds fields (`mechanism`, `curve`, `any_mount`, …).
 */
export function softHsmManagedKey(token: SoftHsmToken, keyLabel: string, extra: Record<string, unknown>) {
  return {
    library: 'softhsm',
    key_label: keyLabel,
    pin: token.pin,
    slot: token.slot,
    allow_generate_key: true,
    ...extra,
  };
}

/** A `seal "pkcs11"` stanza on `token` with the key `ward-unseal` (generated); `extra` is more lines (`  disabled = "true"\n`). */
export function pkcs11SealStanza(token: SoftHsmToken, extra = ''): string {
  return `seal "pkcs11" {
  lib = "${SOFTHSM_LIBRARY}"
  token_label = "${token.label}"
  pin = "${token.pin}"
  key_label = "ward-unseal"
  generate_key = "true"
${extra}}
`;
}
