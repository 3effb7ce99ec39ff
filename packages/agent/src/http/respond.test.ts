import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { STATUS } from './respond.js';

// Keeps the README's error table in step with the one status map (fastify's errors test).
describe('error catalogue', () => {
  it('documents every error code with its status in the README', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    for (const [code, status] of Object.entries(STATUS)) {
      assert.match(readme, new RegExp(`\\| \`${code}\` \\| ${status} \\|`), code);
    }
  });
});
