import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { createLocalTarget } from './local-target.js';
import { snapshotTargetCases } from './snapshot-target.case.js';
import type { SnapshotTarget } from './snapshot-target.js';

describe('local snapshot target', () => {
  const dirs = new Map<SnapshotTarget, string>();
  after(() => Promise.all([...dirs.values()].map((d) => rm(d, { recursive: true, force: true }))));
  snapshotTargetCases(
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ward-local-target-'));
      const target = createLocalTarget(join(dir, 'snapshots'));
      dirs.set(target, dir);
      return target;
    },
    (target, name) => readFile(join(dirs.get(target) ?? '', 'snapshots', name), 'utf8'),
  );
});
