import { PostgresServer } from '@ward/base/testing';
import { openStore } from './index.js';
import { describeStore } from './store.case.js';

// A throwaway PostgreSQL from Debian's `postgresql` package (system-packages.txt), one
// database per case.
describeStore('postgres', async () => {
  const server = await PostgresServer.start();
  return {
    async fresh() {
      const url = await server.createDatabase();
      return { open: (random) => openStore({ postgresUrl: url }, random) };
    },
    stop: () => server.stop(),
  };
});
