import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

// Issue 22: the proxy rides out a server restart. Its token's renewal fails while the server is
// down, it retries its login with backoff, and once the server is back (same port, same SQLite
// storage, unsealed) it logs in and forwards again.
describe('ward proxy through a restart of a -config server', () => {
  let dir: string;
  let serverConfig: string;
  let serverUrl: string;
  let server: WardProcess | undefined;
  let proxy: WardProcess | undefined;
  let proxyUrl: string;
  let unsealKey: string;
  let rootToken: string;

  const startServer = async () => {
    server = startWard(['server', `-config=${serverConfig}`]);
    await server.waitFor(/listening: url=/);
    if (unsealKey) await request(serverUrl, 'PUT', 'sys/unseal', { body: { key: unsealKey } });
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-proxy-restart-'));
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    serverConfig = join(dir, 'server.hcl');
    await writeFile(
      serverConfig,
      `storage "sqlite" { path = "${join(dir, 'ward.db')}" }\nlistener "tcp" {\n  address = "127.0.0.1:${port}"\n  tls_disable = true\n}\n`,
    );
    await startServer();
    const init = await request(serverUrl, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    [unsealKey = ''] = init.body.keys_base64;
    rootToken = init.body.root_token;
    await request(serverUrl, 'PUT', 'sys/unseal', { body: { key: unsealKey } });
    const root = (method: string, path: string, body: unknown) =>
      request(serverUrl, method, path, { token: rootToken, body });
    await root('POST', 'sys/mounts/secret', { type: 'kv', options: { version: '2' } });
    await root('POST', 'secret/data/app', { data: { k: 'v' } });
    await root('PUT', 'sys/policies/acl/app', { policy: 'path "secret/data/*" { capabilities = ["read"] }' });
    await root('POST', 'sys/auth/userpass', { type: 'userpass' });
    // A short TTL, so the renewal (at 2/3 of it) comes while the server is down.
    await root('POST', 'auth/userpass/users/app', { password: 'pw', token_policies: 'app', token_ttl: '6s' });
    await writeFile(join(dir, 'password'), 'pw');
    await writeFile(
      join(dir, 'proxy.hcl'),
      `vault { address = "${serverUrl}" }
listener "tcp" {
  address = "127.0.0.1:0"
  tls_disable = true
}
api_proxy { use_auto_auth_token = true }
auto_auth {
  method "userpass" { config = { username = "app", password_file_path = "${join(dir, 'password')}" } }
}
`,
    );
    proxy = startWard(['proxy', `-config=${join(dir, 'proxy.hcl')}`]);
    [, proxyUrl = ''] = await proxy.waitFor(/proxy listening: url=(\S+)/);
    await proxy.waitFor(/auto-auth: authenticated/);
  });
  after(async () => {
    server?.child.kill('SIGKILL');
    proxy?.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 502 while the server is down, backs off, and forwards again once it is back', async () => {
    const read = () => request(proxyUrl, 'GET', 'secret/data/app', { token: null });
    assert.equal((await read()).status, 200);

    server?.child.kill('SIGTERM');
    assert.equal(await server?.exited, 0);
    const down = await read();
    assert.equal(down.status, 502);
    assert.equal(down.body.errors.length, 1);
    await proxy?.waitFor(/renewal failed; logging in again/, 30_000);
    await proxy?.waitFor(/login failed; retrying[\s\S]*login failed; retrying/, 30_000);
    const waits = [...(proxy?.output() ?? '').matchAll(/login failed; retrying: .*waitMs=(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    assert.ok((waits[1] ?? 0) > (waits[0] ?? 0), `the waits grow: ${waits.join(', ')}`);

    await startServer();
    await proxy?.waitFor(/auto-auth: authenticated[\s\S]*auto-auth: authenticated/, 60_000);
    const back = await read();
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.data.data, { k: 'v' });
  });
});
