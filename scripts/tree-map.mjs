#!/usr/bin/env node
// Prints the map of the tree that CONTRIBUTING.md shows: every package and its source folders, each with a
// one-line purpose read from the code, so the map is regenerated from the tree instead of written by hand.
// A package's purpose is its package.json "description". A folder's is the comment at the top of one of its files
// that carries TypeDoc's `@module` tag (`/** What this folder is for. @module */`) in its entry file (index.ts, the
// file named like the folder, backend.ts, main.ts, server.ts, routes.ts, config.ts, handler.ts or core.ts, in that
// order), else in any of its files, else the first sentence of the first doc comment of those files in the same
// order (tests excluded).
// Usage: node scripts/tree-map.mjs   (from anywhere in the checkout)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** Folders of a package's src/ whose sub-folders are listed too (one line each). */
const EXPANDED = new Map([['secrets', new Set(['auth', 'core', 'engines', 'storage', 'sys'])]]);
/** Top-level folders outside packages/, with their purpose (they hold no TypeScript to read it from). */
const TOP_LEVEL = new Map([
  ['bin/', 'launchers of the built CLIs: ward, ward-agent, ward-platform'],
  ['docs/', 'one page per subject (configuration, HA, each engine and auth method, CLI, operations, …)'],
  ['scripts/', 'test-all.sh (the CI entry), run-tests.mjs, hvac-suite.sh, tree-map.mjs (this map)'],
]);
/** Files that usually hold a folder's main part, tried after index.ts and the file named like the folder. */
const ENTRY_FILES = ['main.ts', 'server.ts', 'routes.ts', 'config.ts', 'handler.ts', 'core.ts'];
const ENTRY_SET = new Set(['index.ts', 'backend.ts', ...ENTRY_FILES]);
const PAD = 34;

const isDir = (path) => existsSync(path) && statSync(path).isDirectory();
const dirs = (path) =>
  readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'dist' && isDir(join(path, name)))
    .sort();
// The web UI (packages/ui) is TSX: its files count as sources too.
const isSource = (name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.d.ts');

/** A doc comment's text on one line, without its tags. */
function commentText(body) {
  return body
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .map((line) => line.replace(/\s*@module\b.*$/, ''))
    .filter((line) => line !== '' && !line.startsWith('@'))
    .join(' ');
}

/** The first sentence of `text`, without its closing stop. */
function firstSentence(text) {
  const sentence = /^(.*?[.:;])(\s|$)/.exec(text)?.[1] ?? text;
  return sentence.replace(/[.:;]$/, '');
}

/** The text of the `@module` comment `source` opens with, or undefined. */
function moduleComment(source) {
  const match = /^(?:#!.*\n)?\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  return match && /@module\b/.test(match[1]) ? commentText(match[1]) : undefined;
}

/** The text of the first doc comment in `source`, or undefined. */
function firstDocComment(source) {
  const match = /\/\*\*([\s\S]*?)\*\//.exec(source);
  return match ? commentText(match[1]) || undefined : undefined;
}

/** A folder's purpose: its `@module` comment, else the first doc comment of the files tried in order. */
function purpose(dir, name) {
  const files = readdirSync(dir).filter(isSource).sort();
  const ordered = [...new Set(['index.ts', `${name}.ts`, 'backend.ts', ...ENTRY_FILES, ...files])].filter((file) =>
    files.includes(file),
  );
  const sources = ordered.map((file) => readFileSync(join(dir, file), 'utf8'));
  // An entry file's `@module` comment first: other files may carry one about themselves.
  const entries = ordered.filter((file) => ENTRY_SET.has(file) || file === `${name}.ts`).length;
  const tagged =
    sources
      .slice(0, entries)
      .map(moduleComment)
      .find((text) => text) ?? sources.map(moduleComment).find((t) => t);
  if (tagged) return tagged.replace(/\.$/, '');
  const first = sources.map(firstDocComment).find((text) => text);
  if (first) return firstSentence(first);
  return files.length === 0 ? 'one folder each, below' : '(no doc comment yet)';
}

const line = (path, text) => `${path.padEnd(PAD)}${text}`;

const out = [];
for (const [path, text] of TOP_LEVEL) out.push(line(path, text));
const packagesDir = join(root, 'packages');
for (const pkg of dirs(packagesDir)) {
  const pkgDir = join(packagesDir, pkg);
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  out.push('', line(`packages/${pkg}/`, manifest.description ?? ''));
  const src = join(pkgDir, 'src');
  if (isDir(src)) {
    for (const folder of dirs(src)) {
      out.push(line(`  src/${folder}/`, purpose(join(src, folder), folder)));
      if (!EXPANDED.get(pkg)?.has(folder)) continue;
      for (const sub of dirs(join(src, folder))) {
        out.push(line(`    ${sub}/`, purpose(join(src, folder, sub), sub)));
      }
    }
  }
  if (isDir(join(pkgDir, 'test'))) out.push(line('  test/', 'tests across layers, through real processes and sockets'));
  if (isDir(join(pkgDir, 'bench'))) out.push(line('  bench/', 'benchmarks (npm run bench)'));
}
process.stdout.write(`${out.join('\n')}\n`);
