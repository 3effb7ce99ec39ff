import { LogicalError } from '../../logical/errors.js';
import { loadMigrationConfig, migrateStorage } from '../../server/storage-migration.js';
import { StorageUnusableError } from '../../storage/index.js';
import { CliError, defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/**
 * `ward operator migrate -config=FILE`: copies every entry from one storage backend to another
 * (SQLite to PostgreSQL, file to etcd, …) while no server runs on either, as established.
 */
export const operatorMigrateCommand = defineCommand({
  name: 'operator migrate',
  summary: 'Copy all data from one storage backend to another (offline; stop every server first).',
  usage: '',
  example: 'ward operator migrate -config=migrate.hcl',
  description:
    "The file holds one storage_source and one storage_destination block, each written like a server's storage block:\n\n" +
    '  storage_source "sqlite" { path = "/var/lib/ward/ward.db" }\n' +
    '  storage_destination "postgresql" { connection_url = "postgres://ward@db/ward" }\n\n' +
    'The destination must be empty. Entries are copied as stored (encrypted), so the new store unseals with the same keys.',
  flags: {
    config: flag.string('Path to the migration configuration file.', ''),
    start: flag.string('Only copy keys that sort at or after this one.', ''),
  },
  args: { min: 0, max: 0 },
  async run({ flags }, { out }) {
    if (flags.config === '') throw new UsageError('-config is required');
    try {
      const copied = await migrateStorage(await loadMigrationConfig(flags.config), { startKey: flags.start });
      out.success(`All of the keys have been migrated (${copied}).`);
    } catch (err) {
      // A bad file or an unusable store: one line and exit 1, as `ward server` reports them.
      if (err instanceof LogicalError || err instanceof StorageUnusableError) throw new CliError(err.message, 1);
      throw err;
    }
    return undefined;
  },
});
