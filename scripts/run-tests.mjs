#!/usr/bin/env node
// Runs every compiled test file (packages/*/dist/**/*.test.js) with Node's own test runner.
// It finds the files itself (rather than passing `--test` a glob) so that `*.slow.test.js` can run apart.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

function findTests(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const files = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dist = join(root, 'packages', pkg, 'dist');
  try {
    statSync(dist);
  } catch {
    continue;
  }
  findTests(dist, files);
}
const selected = files
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (selected.length === 0) {
  console.error('no test files found: run `npm run build` first');
  process.exit(1);
}
// `*.slow.test.js` files (minutes of work by design, such as loading 100k secrets) run after the
// others, one at a time, with a longer limit than the 3 minutes that catch a hung test elsewhere.
const run = (files, timeoutMs, concurrency) =>
  files.length === 0
    ? 0
    : (spawnSync(
        process.execPath,
        ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...files],
        { cwd: root, stdio: 'inherit' },
      ).status ?? 1);
const isSlow = (f) => f.endsWith('.slow.test.js');
const status = run(
  selected.filter((f) => !isSlow(f)),
  180_000,
  2,
);
const slowStatus = run(selected.filter(isSlow), 900_000, 1);
process.exit(status || slowStatus);
