import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helpMarkdown } from './help.js';
import { createToyTotpBackend } from './openapi.testing.js';

describe('helpMarkdown', () => {
  const backend = createToyTotpBackend();

  it('describes the backend and lists its paths at the mount root', () => {
    const help = helpMarkdown(backend, '') ?? '';
    assert.match(help, /^## DESCRIPTION\n\nGenerates and checks time-based one-time passwords\.\n\n## PATHS\n/);
    assert.match(help, /\n {4}\/code\/\{name\}\n {8}Generate or check a code\.\n/);
    assert.match(help, /\n {4}\/keys\/\{name\}\n {8}Manage the keys that generate codes\.$/);
  });

  it('lists only the paths at or below a partial path', () => {
    const help = helpMarkdown(backend, 'keys') ?? '';
    assert.match(help, /\/keys\/\{name\}/);
    assert.doesNotMatch(help, /\/code\//);
  });

  it('documents the one path that serves a request, with a table of its fields', () => {
    const help = helpMarkdown(backend, 'keys/app') ?? '';
    assert.match(
      help,
      /^Request: {8}keys\/app\nMatching Route: \/keys\/\{name\}\n\nManage the keys that generate codes\.\n/,
    );
    assert.match(help, /\n## PARAMETERS\n\n\| Name \| Type \| In \| Required \| Default \| Description \|\n/);
    assert.match(help, /\n\| `name` \| string \| path \| yes \| {2}\| Name of the key\. \|\n/);
    assert.match(help, /\n\| `period` \| string \(duration\) \| data \| no \| `30` \| Seconds a code is valid\. \|\n/);
    assert.match(help, /\n\| `skew` \| array of integer \| data \| no \| {2}\| Periods accepted around now\. \|\n/);
    assert.match(help, /\| Digits \\\| length of a code\. \|/, 'a | in a description does not split the cell');
    assert.match(help, /\n## OPERATIONS\n\n\| Operation \| Summary \|\n\|---\|---\|\n\| read \| Read a key\. \|\n/);
    assert.match(help, /\n## DESCRIPTION\n\nKeys live in storage\.$/);
  });

  it('has nothing for a path the backend does not serve', () => {
    assert.equal(helpMarkdown(backend, 'nope/x'), undefined);
  });
});
