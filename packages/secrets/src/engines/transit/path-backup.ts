import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { decodeJson, type Storage } from '../../logical/storage.js';
import type { TransitDeps } from './deps.js';
import { heldKeyOf } from './key-creation.js';
import { type HeldTransitKey, transitKeys } from './key-store.js';
import { HELD_KEY_TYPES } from './key-types.js';
import { base64Field, establishedServerError } from './wire.js';

/** Marks a backup as Ward's: the established server's backups hold its own key format, not this one. */
const FORMAT = 'ward-transit-backup/1';

interface Backup {
  format: typeof FORMAT;
  name: string;
  key: HeldTransitKey;
}

/** `backup/:name`: the whole key, every version, as base64 (needs exportable and allow_plaintext_backup). */
export function pathBackup() {
  return definePath({
    pattern: 'backup/:name',
    fields: { name: field.path({ description: 'Name of the key.' }) },
    operations: {
      read: {
        summary: 'Back up a key.',
        handler: async ({ storage, data }) => {
          const entry = await heldKeyOf(storage, data.name, 'no such key');
          if (!entry.allow_plaintext_backup)
            return establishedServerError('plaintext backup is disallowed on the policy');
          if (!entry.exportable) return establishedServerError('exporting is disallowed on the policy');
          const backup: Backup = { format: FORMAT, name: data.name, key: entry };
          return { data: { backup: Buffer.from(JSON.stringify(backup)).toString('base64') } };
        },
      },
    },
    help: { synopsis: 'Back up a key.', description: 'Answers `backup`, which restore/ takes back.' },
  });
}

function parseBackup(text: string): Backup {
  let backup: Partial<Backup>;
  try {
    backup = decodeJson<Partial<Backup>>(base64Field(text, 'backup'));
  } catch (err) {
    if (err instanceof InvalidRequestError) throw err;
    throw new InvalidRequestError('failed to decode the backup: not a backup of this server');
  }
  const key = backup.key;
  const valid =
    backup.format === FORMAT &&
    typeof backup.name === 'string' &&
    typeof key === 'object' &&
    key !== null &&
    (HELD_KEY_TYPES as readonly string[]).includes(key.type) &&
    typeof key.versions === 'object' &&
    Number.isInteger(key.latest_version);
  if (!valid) throw new InvalidRequestError('failed to decode the backup: not a backup of this server');
  return backup as Backup;
}

/** `restore` and `restore/:name`: a backed-up key, under its own name or `name`; `force` replaces an existing key. */
export function pathRestore(d: TransitDeps) {
  const fields = {
    backup: field.string({ description: 'What backup/ answered.', required: true }),
    force: field.bool({ description: 'Replace an existing key of that name.', default: false }),
  };
  const operations = {
    update: {
      summary: 'Restore a key.',
      handler: async ({ storage, data }: { storage: Storage; data: { backup: string; force: boolean } }) => {
        const backup = parseBackup(data.backup);
        const name = (data as { name?: string }).name || backup.name;
        return d.locks.run(name, async () => {
          if (!data.force && (await transitKeys.get(storage, name)))
            return establishedServerError(`key "${name}" already exists`);
          await transitKeys.put(storage, name, backup.key);
          return undefined;
        });
      },
    },
  };
  const help = { synopsis: 'Restore a key.', description: 'Refused over an existing key unless force.' };
  return [
    definePath({ pattern: 'restore', fields, operations, help }),
    definePath({
      pattern: 'restore/:name',
      fields: { ...fields, name: field.path({ description: 'Name to restore the key under.' }) },
      operations,
      help,
    }),
  ];
}
