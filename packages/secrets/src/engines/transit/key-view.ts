import { derivedEd25519, derivesSigningKeys } from './key-objects.js';
import type { HeldTransitKey } from './key-store.js';
import { capabilities, specOf } from './key-types.js';

const unixSeconds = (rfc3339: string) => Math.floor(Date.parse(rfc3339) / 1000);

/**
 * The `keys` map of a read, as established: creation times (AEAD), or public keys (asymmetric);
 * none for hmac. A derived ed25519 key shows the public keys of `context`, or none without one.
 */
function versionsView(entry: HeldTransitKey, context: Buffer | undefined): Record<string, unknown> | undefined {
  const spec = specOf(entry.type);
  if (spec.kind === 'hmac') return undefined;
  const keys: Record<string, unknown> = {};
  for (const [version, v] of Object.entries(entry.versions)) {
    if (spec.kind === 'aead') {
      keys[version] = unixSeconds(v.creation_time);
      continue;
    }
    const name = spec.kind === 'ecdsa' ? spec.curve?.shown : spec.kind === 'rsa' ? entry.type : 'ed25519';
    let publicKey = v.public_key ?? '';
    if (derivesSigningKeys(entry))
      publicKey = context?.length ? derivedEd25519(v, context).publicRaw.toString('base64') : '';
    keys[version] = { creation_time: v.creation_time, name, public_key: publicKey };
  }
  return keys;
}

/** What a read (and create, config, rotate, trim) answers about a key the engine holds: never key material. */
export function heldKeyView(name: string, entry: HeldTransitKey, context?: Buffer): Record<string, unknown> {
  const view: Record<string, unknown> = {
    name,
    type: entry.type,
    derived: entry.derived,
    deletion_allowed: entry.deletion_allowed,
    min_available_version: entry.min_available_version,
    min_decryption_version: entry.min_decryption_version,
    min_encryption_version: entry.min_encryption_version,
    latest_version: entry.latest_version,
    exportable: entry.exportable,
    allow_plaintext_backup: entry.allow_plaintext_backup,
    ...capabilities(entry.type),
    auto_rotate_period: entry.auto_rotate_period,
    imported_key: entry.imported_key === true,
  };
  if (entry.imported_key) view.imported_key_allow_rotation = entry.allow_imported_key_rotation === true;
  if (entry.key_size !== undefined) view.key_size = entry.key_size;
  if (entry.derived) {
    view.kdf = 'hkdf_sha256';
    view.convergent_encryption = entry.convergent_encryption;
    // Every version is of the current convergent scheme (the nonce keyed by a derived HMAC key).
    if (entry.convergent_encryption) view.convergent_encryption_version = -1;
  }
  const keys = versionsView(entry, context);
  if (keys) view.keys = keys;
  return view;
}
