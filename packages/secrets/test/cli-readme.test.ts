import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempHome, WARD_BIN } from '../src/cli/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const CLI_PAGE = new URL('../../../../docs/cli.md', import.meta.url);

/** The fenced `sh` blocks of the "Command-line client" section of docs/cli.md, in order. */
async function readmeExamples(): Promise<string[]> {
  const text = await readFile(CLI_PAGE, 'utf8');
  const start = text.indexOf('\n## Command-line client\n');
  assert.ok(start >= 0, 'docs/cli.md has a "Command-line client" section');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/** `TEXT` of every line ending in `# → TEXT`: the block must print it as a whole line. */
function expectedLines(block: string): string[] {
  return [...block.matchAll(/# → (.+)$/gm)].map((m) => (m[1] as string).trim());
}

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('docs/cli.md "Command-line client" examples', () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    // `ward` on PATH is this checkout's bin/ward, as the page's setup line arranges.
    const bin = await mkdtemp(join(tmpdir(), 'ward-readme-bin-'));
    await symlink(WARD_BIN, join(bin, 'ward'));
    env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: await tempHome(),
      VAULT_ADDR: server.url,
      VAULT_TOKEN: server.rootToken,
    };
  });
  after(() => server.stop());

  it('every sh block runs without error and prints what its "# →" comments promise', async () => {
    const blocks = await readmeExamples();
    assert.ok(blocks.length >= 3, `found ${blocks.length} sh blocks`);
    for (const [i, block] of blocks.entries()) {
      const run = await bash(block, env);
      const context = `docs/cli.md sh block ${i + 1}:\n${block}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      assert.equal(run.code, 0, context);
      const lines = run.stdout.split('\n').map((l) => l.trim());
      for (const expected of expectedLines(block))
        assert.ok(lines.includes(expected), `missing "${expected}"\n${context}`);
    }
  });

  it('the parser finds the promises it checks', async () => {
    const blocks = await readmeExamples();
    assert.ok(blocks.flatMap(expectedLines).includes('s3cret'));
  });
});
