import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { TransitDeps } from './deps.js';
import { checkAutoRotatePeriod, heldKeyOf, rotateHeldKey } from './key-creation.js';
import { type HeldTransitKey, transitKeys } from './key-store.js';
import { heldKeyView } from './key-view.js';

const nameField = field.path({ description: 'Name of the key.' });

/** `keys/:name/rotate`: a new version; new encryptions and signatures use it, older ones still open. */
export function pathRotate(d: TransitDeps) {
  return definePath({
    pattern: 'keys/:name/rotate',
    fields: { name: nameField },
    operations: {
      update: {
        summary: 'Add a new version of the key.',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            const entry = await heldKeyOf(storage, data.name, 'key not found');
            rotateHeldKey(d, entry);
            await transitKeys.put(storage, data.name, entry);
            return { data: heldKeyView(data.name, entry) };
          }),
      },
    },
    help: { synopsis: 'Rotate the key.', description: 'Managed keys do not rotate here.' },
  });
}

interface ConfigChange {
  min_decryption_version?: number;
  min_encryption_version?: number;
  deletion_allowed?: boolean;
  exportable?: boolean;
  allow_plaintext_backup?: boolean;
  auto_rotate_period?: number;
}

/** Applies a config change as established (the checks in its order); answers the warnings. */
function applyConfig(entry: HeldTransitKey, change: ConfigChange): string[] {
  const warnings: string[] = [];
  let minDecryption = change.min_decryption_version;
  if (minDecryption !== undefined) {
    if (minDecryption < 0) throw new InvalidRequestError('min decryption version cannot be negative');
    if (minDecryption === 0) {
      minDecryption = 1;
      warnings.push('since Vault 0.3, transit key numbering starts at 1; forcing minimum to 1');
    }
    if (minDecryption > entry.latest_version)
      throw new InvalidRequestError(
        `cannot set min decryption version of ${minDecryption}, latest key version is ${entry.latest_version}`,
      );
    entry.min_decryption_version = minDecryption;
  }
  const minEncryption = change.min_encryption_version;
  if (minEncryption !== undefined) {
    if (minEncryption < 0) throw new InvalidRequestError('min encryption version cannot be negative');
    if (minEncryption > entry.latest_version)
      throw new InvalidRequestError(
        `cannot set min encryption version of ${minEncryption}, latest key version is ${entry.latest_version}`,
      );
    entry.min_encryption_version = minEncryption;
  }
  if (entry.min_encryption_version > 0 && entry.min_encryption_version < entry.min_decryption_version)
    throw new InvalidRequestError(
      `cannot set min encryption/decryption values; min encryption version of ${entry.min_encryption_version} ` +
        `must be greater than or equal to min decryption version of ${entry.min_decryption_version}`,
    );
  if (change.deletion_allowed !== undefined) entry.deletion_allowed = change.deletion_allowed;
  // Once on, export and backup stay on: the key may already have left.
  if (change.exportable) entry.exportable = true;
  if (change.allow_plaintext_backup) entry.allow_plaintext_backup = true;
  if (change.auto_rotate_period !== undefined)
    entry.auto_rotate_period = checkAutoRotatePeriod(change.auto_rotate_period);
  if (entry.min_available_version > entry.min_encryption_version)
    throw new InvalidRequestError('min encryption version should not be less than min available version');
  if (entry.min_available_version > entry.min_decryption_version)
    throw new InvalidRequestError('min decryption version should not be less then min available version');
  return warnings;
}

/** `keys/:name/config`: the oldest usable versions, deletion, export, backup and auto-rotation. */
export function pathKeyConfig(d: TransitDeps) {
  return definePath({
    pattern: 'keys/:name/config',
    fields: {
      name: nameField,
      min_decryption_version: field.int({ description: 'Oldest version whose ciphertexts and signatures open.' }),
      min_encryption_version: field.int({ description: 'Oldest version encrypt and sign may use (0: any).' }),
      deletion_allowed: field.bool({ description: 'Whether the key may be deleted.' }),
      exportable: field.bool({ description: 'Allow export (cannot be turned off).' }),
      allow_plaintext_backup: field.bool({ description: 'Allow backup (cannot be turned off).' }),
      auto_rotate_period: field.durationSeconds({ description: 'Rotate by itself after this long (0 or ≥ 1h).' }),
    },
    operations: {
      update: {
        summary: 'Configure the key.',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            const entry = await heldKeyOf(storage, data.name, `no existing key named ${data.name} could be found`);
            const warnings = applyConfig(entry, data);
            await transitKeys.put(storage, data.name, entry);
            return { data: heldKeyView(data.name, entry), ...(warnings.length ? { warnings } : {}) };
          }),
      },
    },
    help: {
      synopsis: 'Configure a key.',
      description: 'exportable and allow_plaintext_backup cannot be turned off once on.',
    },
  });
}

/** `keys/:name/trim`: deletes the versions below `min_available_version` for good. */
export function pathTrim(d: TransitDeps) {
  return definePath({
    pattern: 'keys/:name/trim',
    fields: {
      name: nameField,
      min_available_version: field.int({ description: 'Versions below it are deleted.', required: true }),
    },
    operations: {
      update: {
        summary: 'Trim old versions.',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            const entry = await heldKeyOf(storage, data.name, 'invalid key name');
            const min = data.min_available_version;
            if (min < entry.min_available_version)
              throw new InvalidRequestError('minimum available version cannot be decremented');
            if (entry.min_encryption_version === 0)
              throw new InvalidRequestError(
                'minimum available version cannot be set when minimum encryption version is not set',
              );
            if (min > entry.min_encryption_version)
              throw new InvalidRequestError(
                'minimum available version cannot be greater than minmum encryption version',
              );
            if (min > entry.min_decryption_version)
              throw new InvalidRequestError(
                'minimum available version cannot be greater than minimum decryption version',
              );
            if (min <= 0) throw new InvalidRequestError('minimum available version should be positive');
            for (const version of Object.keys(entry.versions))
              if (Number(version) < min) delete entry.versions[version];
            entry.min_available_version = min;
            await transitKeys.put(storage, data.name, entry);
            return { data: heldKeyView(data.name, entry) };
          }),
      },
    },
    help: { synopsis: 'Trim old versions of a key.', description: 'Ciphertexts of trimmed versions never open again.' },
  });
}
