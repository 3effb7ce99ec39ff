import { field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { TransitDeps } from './deps.js';
import { type HeldTransitKey, isManaged, type ManagedTransitKey, transitKeys } from './key-store.js';
import { HELD_KEY_TYPES, type HeldKeyType, newVersion, specOf } from './key-types.js';

export const KEY_TYPES = [...HELD_KEY_TYPES, 'managed_key'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

const HOUR_SECONDS = 3600;
const HMAC_MIN_KEY_BYTES = 32;
const HMAC_MAX_KEY_BYTES = 512;

/** The fields that create a key: on `keys/:name`, and on `encrypt/:name` when the key does not exist yet. */
export const keyCreationFields = {
  type: field.enum({
    description: `Key type: ${KEY_TYPES.join(', ')} (default aes256-gcm96).`,
    values: KEY_TYPES,
    default: 'aes256-gcm96' as const,
  }),
  derived: field.bool({ description: 'Derive each operation’s key from its context (HKDF-SHA256).', default: false }),
  convergent_encryption: field.bool({
    description: 'With derived: equal plaintexts and contexts give equal ciphertexts.',
    default: false,
  }),
  exportable: field.bool({ description: 'Whether export/ may return the key (cannot be undone).', default: false }),
  allow_plaintext_backup: field.bool({ description: 'Whether backup/ may return the key.', default: false }),
  auto_rotate_period: field.durationSeconds({ description: 'Rotate by itself after this long (0 or ≥ 1h).' }),
  key_size: field.int({ description: 'type hmac: key bytes, 32 to 512 (default 32).' }),
};

export interface KeyCreation {
  type: KeyType;
  derived: boolean;
  convergent_encryption: boolean;
  exportable: boolean;
  allow_plaintext_backup: boolean;
  auto_rotate_period?: number;
  key_size?: number;
}

export function checkAutoRotatePeriod(seconds: number | undefined): number {
  if (seconds && seconds < HOUR_SECONDS)
    throw new InvalidRequestError('auto rotate period must be 0 to disable or at least an hour');
  return seconds ?? 0;
}

/** A new key the engine holds (version 1), after the established checks of its options. */
export function newHeldKey(d: TransitDeps, data: KeyCreation): HeldTransitKey {
  const type = data.type as HeldKeyType;
  const { kind } = specOf(type);
  const autoRotatePeriod = checkAutoRotatePeriod(data.auto_rotate_period);
  if (data.convergent_encryption && !data.derived)
    throw new InvalidRequestError('convergent encryption requires derivation to be enabled');
  // AEAD keys derive an encryption key per context, ed25519 keys a signing key.
  if (data.derived && kind !== 'aead' && kind !== 'ed25519')
    throw new InvalidRequestError(`key derivation and convergent encryption not supported for keys of type ${type}`);
  if (data.convergent_encryption && kind !== 'aead')
    throw new InvalidRequestError(`convergent encryption not supported for keys of type ${type}`);
  if (data.key_size !== undefined && data.key_size !== 0) {
    if (kind !== 'hmac') throw new InvalidRequestError(`key_size is not valid for algorithm ${type}`);
    if (data.key_size < HMAC_MIN_KEY_BYTES || data.key_size > HMAC_MAX_KEY_BYTES)
      throw new InvalidRequestError(`invalid key_size ${data.key_size}`);
  }
  const keySize = kind === 'hmac' ? data.key_size || HMAC_MIN_KEY_BYTES : undefined;
  const entry: HeldTransitKey = {
    type,
    versions: { '1': newVersion(type, d.random, d.now(), keySize) },
    latest_version: 1,
    min_decryption_version: 1,
    min_encryption_version: 0,
    min_available_version: 0,
    deletion_allowed: false,
    exportable: data.exportable,
    allow_plaintext_backup: data.allow_plaintext_backup,
    derived: data.derived,
    convergent_encryption: data.convergent_encryption,
    auto_rotate_period: autoRotatePeriod,
  };
  if (keySize !== undefined) entry.key_size = keySize;
  return entry;
}

/** Adds a version to `entry` (rotate, auto-rotation); imported keys only with `allow_rotation`, as established. */
export function rotateHeldKey(d: TransitDeps, entry: HeldTransitKey): void {
  if (entry.imported_key && !entry.allow_imported_key_rotation)
    throw new InvalidRequestError('imported keys do not allow rotation');
  entry.latest_version += 1;
  entry.versions[String(entry.latest_version)] = newVersion(entry.type, d.random, d.now(), entry.key_size);
}

export async function newManagedKey(
  d: TransitDeps,
  data: { managed_key_name?: string; managed_key_id?: string; auto_rotate_period?: number },
): Promise<ManagedTransitKey> {
  if (data.auto_rotate_period) throw new InvalidRequestError('Auto rotation can not be set for managed keys');
  if (data.managed_key_name && data.managed_key_id)
    throw new InvalidRequestError('only one argument of managed_key_name or managed_key_id should be specified');
  if (!data.managed_key_name && !data.managed_key_id)
    throw new InvalidRequestError('missing argument managed_key_name or managed_key_id');
  const ref = data.managed_key_id ? { id: data.managed_key_id } : { name: data.managed_key_name ?? '' };
  const key = await d.managedKey(ref);
  return { type: 'managed_key', managed_key_id: key.id, managed_key_name: key.name, creation_time: d.now() };
}

/**
 * The key `name` the engine holds, or a 400 as established when it is missing (`missing` is the
 * text: "encryption key not found", "signing key not found", …) or lives in a managed key.
 */
export async function heldKeyOf(
  storage: Storage,
  name: string,
  missing: string,
  read: 'change' | 'look' = 'change',
): Promise<HeldTransitKey> {
  // 'look': the frozen entry the barrier keeps decoded (see transitKeys.view); it must not be changed.
  const entry = read === 'look' ? await transitKeys.view(storage, name) : await transitKeys.get(storage, name);
  if (!entry) throw new InvalidRequestError(missing);
  if (isManaged(entry)) throw new InvalidRequestError(`key type ${entry.type} does not support this operation here`);
  return entry;
}
