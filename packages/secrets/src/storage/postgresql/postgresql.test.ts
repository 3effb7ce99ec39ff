import { after, before, describe } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import { storageCases } from '../storage.case.js';
import { PostgresStorage } from './postgresql.js';
import { parsePostgresConfig } from './postgresql-config.js';

// Issue 29: the shared storage suite against a real PostgreSQL (Debian's `postgresql`, a throwaway cluster).
describe('PostgresStorage', () => {
  let server: PostgresServer;
  let url: string;
  let tables = 0;
  before(async () => {
    server = await PostgresServer.start();
    url = await server.createDatabase();
  });
  after(() => server?.stop());

  for (const ha of [false, true]) {
    describe(ha ? 'with HA (revisions, change log, NOTIFY)' : 'alone', () => {
      storageCases(
        async () =>
          new PostgresStorage(
            parsePostgresConfig(
              { connection_url: url, table: `kv_${++tables}`, ha_enabled: ha, ha_table: `ha_${tables}` },
              {},
            ),
          ),
      );
    });
  }
});
