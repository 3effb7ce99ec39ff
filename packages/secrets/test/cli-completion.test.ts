import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runWardInProcess, tempHome } from '../src/cli/testing.js';

const run = promisify(execFile);

/** What bash completes for the words typed so far (the last one being completed). */
async function complete(script: string, words: string[]): Promise<string[]> {
  const file = join(await tempHome(), 'ward.bash');
  await writeFile(file, script);
  const typed = words.map((w) => `'${w}'`).join(' ');
  const { stdout } = await run('bash', [
    '-c',
    `source '${file}'; COMP_WORDS=(ward ${typed}); COMP_CWORD=${words.length}; _ward; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return stdout.split('\n').filter(Boolean).sort();
}

// Issue 21, point 5: completion scripts generated from the command table.
describe('ward completion bash|zsh', () => {
  it('completes commands, groups and subcommands in bash', async () => {
    const bash = await runWardInProcess(['completion', 'bash'], { HOME: await tempHome() });
    assert.equal(bash.code, 0, bash.stderr);
    assert.deepEqual(await complete(bash.stdout, ['st']), ['status']);
    assert.deepEqual(await complete(bash.stdout, ['kv', 'meta']), ['metadata']);
    assert.deepEqual(await complete(bash.stdout, ['kv', 'metadata', '']), ['delete', 'get', 'patch', 'put']);
    assert.deepEqual(await complete(bash.stdout, ['kv', '-mount=secret', 'ro']), ['rollback']);
    assert.deepEqual(await complete(bash.stdout, ['lease', '']), ['lookup', 'renew', 'revoke']);
  });

  it('prints a zsh script with the same table, and refuses another shell', async () => {
    const zsh = await runWardInProcess(['completion', 'zsh'], { HOME: await tempHome() });
    assert.equal(zsh.code, 0, zsh.stderr);
    assert.match(zsh.stdout, /^#compdef ward/);
    assert.match(zsh.stdout, /"kv metadata"\) candidates=\(delete get patch put\) ;;/);
    const fish = await runWardInProcess(['completion', 'fish'], { HOME: await tempHome() });
    assert.equal(fish.code, 2);
  });
});
