import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './index.js';
import { describeStore } from './store.case.js';

describeStore('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-platform-store-'));
  let databases = 0;
  return {
    async fresh() {
      const path = join(dir, `db-${++databases}.sqlite`);
      return { open: (random) => openStore({ sqlitePath: path }, random) };
    },
    async stop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
