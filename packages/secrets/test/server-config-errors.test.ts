import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startWard } from './ward-process.js';

// Issue 21, point 8: configuration mistakes are named with their line, a port in use is one
// line, and a server that does start says how it runs and what to do next.
describe('ward server -config: errors and the start banner', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function configFile(name: string, text: string): Promise<string> {
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  }

  it('refuses a misspelt listener key, naming the key, its line and the likely one', async () => {
    const file = await configFile(
      'typo.hcl',
      `storage "inmem" {}\n\nlistener "tcp" {\n  address      = "127.0.0.1:0"\n  tls_cert_fil = "/etc/ward/cert.pem"\n  tls_key_file = "/etc/ward/key.pem"\n}\n`,
    );
    const ward = startWard(['server', `-config=${file}`]);
    assert.equal(await ward.exited, 1);
    assert.equal(
      ward.output(),
      `Error: ${file}:5: unknown key "tls_cert_fil" in listener "tcp"; did you mean "tls_cert_file"?\n`,
    );
  });

  it('refuses an unknown block with its line', async () => {
    const file = await configFile(
      'block.hcl',
      `storage "inmem" {}\nlistener "tcp" { tls_disable = true }\ntelemtry {\n}\n`,
    );
    const ward = startWard(['server', `-config=${file}`]);
    assert.equal(await ward.exited, 1);
    assert.match(
      ward.output(),
      new RegExp(`${file}:3: unknown key "telemtry" at the top level; did you mean "telemetry"\\?`),
    );
  });

  it('accepts ui and telemetry, and prints a banner that says to run ward operator init', async () => {
    const file = await configFile(
      'ok.hcl',
      `ui = true\ntelemetry {\n  disable_hostname = true\n}\nstorage "sqlite" {\n  path = "${join(dir, 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    const ward = startWard(['server', `-config=${file}`]);
    try {
      await ward.waitFor(/Ward server started!/);
      const banner = ward.output();
      assert.match(banner, /Version: Ward v\d+\.\d+\.\d+/);
      assert.match(banner, new RegExp(`Storage: sqlite \\(path: ${join(dir, 'ward.db')}\\)`));
      assert.match(banner, /Listener 1: tcp \(addr: "127\.0\.0\.1:\d+", tls: "disabled"\)/);
      assert.match(banner, /Seal State: uninitialized \(run `ward operator init`/);
    } finally {
      ward.child.kill('SIGTERM');
      assert.equal(await ward.exited, 0);
    }
  });

  it('starts on the legacy `backend "inmem" {}` block (issue 18: hvac’s and node-vault’s example configs)', async () => {
    const file = await configFile(
      'legacy.hcl',
      `backend "inmem" {\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    const ward = startWard(['server', `-config=${file}`]);
    try {
      await ward.waitFor(/Ward server started!/);
      assert.match(ward.output(), /Storage: inmem\n/);
    } finally {
      ward.child.kill('SIGTERM');
      assert.equal(await ward.exited, 0);
    }
  });

  it('says in one line that the port is in use, and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const file = await configFile(
        'busy.hcl',
        `storage "inmem" {}\nlistener "tcp" {\n  address = "127.0.0.1:${port}"\n  tls_disable = true\n}\n`,
      );
      const ward = startWard(['server', `-config=${file}`]);
      assert.equal(await ward.exited, 1);
      assert.equal(ward.output(), `Error: listener 127.0.0.1:${port}: address already in use\n`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
