import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startWard } from './ward-process.js';

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Issue 29: as established, a server whose database cannot be reached stops at start with one line
// (exit 1), rather than waiting sealed with a stack trace in its log.
describe('ward server on storage "postgresql" it cannot reach', () => {
  it('exits 1 with one line naming the database, never its password', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-pg-down-'));
    try {
      const config = join(dir, 'ward.hcl');
      const url = `postgres://ward:s3cret-pw@127.0.0.1:${await closedPort()}/ward`;
      await writeFile(
        config,
        `storage "postgresql" {\n  connection_url = "${url}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
      );
      const ward = startWard(['server', `-config=${config}`]);
      assert.equal(await ward.exited, 1);
      const output = ward.output().trim();
      assert.equal(output.split('\n').length, 1, output);
      assert.match(
        output,
        /storage "postgresql": cannot use the database at postgres:\/\/ward:redacted@127\.0\.0\.1:\d+\/ward/,
      );
      assert.ok(!output.includes('s3cret-pw'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
