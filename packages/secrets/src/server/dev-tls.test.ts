import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createDevTls } from './dev-tls.js';

// Issue 12 point 10: -dev-tls-cert-dir=DIR must not delete what was in DIR before the server ran.
describe('createDevTls', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ward-devtls-test-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('removes only the files it wrote from a directory that existed', async () => {
    const dir = join(scratch, 'existing');
    const mine = join(dir, 'notes.txt');
    mkdirSync(dir);
    writeFileSync(mine, 'keep me');
    const files = await createDevTls(Date.now(), dir);
    assert.deepEqual(readdirSync(dir).sort(), ['notes.txt', 'ward-ca.pem', 'ward-cert.pem', 'ward-key.pem']);
    await files.remove();
    assert.deepEqual(readdirSync(dir), ['notes.txt']);
  });

  it('removes a directory it created, and its own temporary one', async () => {
    const dir = join(scratch, 'new', 'certs');
    const files = await createDevTls(Date.now(), dir);
    assert.ok(existsSync(files.certFile));
    await files.remove();
    assert.equal(existsSync(join(scratch, 'new')), false);
    const temporary = await createDevTls(Date.now());
    await temporary.remove();
    assert.equal(existsSync(temporary.dir), false);
  });
});
