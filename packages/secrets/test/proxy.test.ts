import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import nodeVault from 'node-vault';
import { request, type TestResponse } from '../src/server/testing.js';
import { startDevWard, startWard, WARD_BIN, type WardProcess } from './ward-process.js';

// Issue 22: `ward proxy` in front of a real `ward server -dev`, both as processes; real clients
// (node-vault, hvac, the ward CLI) reach the server through it without a token of their own.

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const HVAC_SCRIPT = fileURLToPath(new URL('../../test/fixtures/clients/hvac_proxy.py', import.meta.url));

const APP_POLICY = `
path "secret/*" { capabilities = ["create", "read", "update", "delete", "list"] }
path "auth/token/create" { capabilities = ["update"] }
path "auth/token/revoke" { capabilities = ["update"] }
`;

/** Starts `ward proxy` with `config` and waits for `listeners` listening lines (and `ready`, if given). */
async function startProxy(dir: string, name: string, config: string, listeners: number, ready?: RegExp) {
  const file = join(dir, `${name}.hcl`);
  await writeFile(file, config);
  const proxy = startWard(['proxy', `-config=${file}`]);
  await proxy.waitFor(new RegExp(Array(Math.max(listeners, 1)).fill('proxy listening').join('[\\s\\S]*')));
  if (ready) await proxy.waitFor(ready);
  const urls = [...proxy.output().matchAll(/proxy listening: url=(\S+)/g)].map((m) => m[1] as string);
  return { proxy, urls };
}

/** A request to the proxy or server that sends exactly the headers given (no token unless named). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return request(url, method, path, { token: null, headers, body });
}

/** A POST whose body goes out in chunks (Transfer-Encoding: chunked, no Content-Length); resolves with the status. */
function postChunked(url: string, chunks: string[], headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('ward proxy in front of ward server -dev', () => {
  const REQ = { 'X-Vault-Request': 'true' };
  let dir: string;
  let server: WardProcess;
  let serverUrl: string;
  let proxy: WardProcess;
  /** require_request_header = true and proxy_api { enable_quit = true } */
  let strictUrl: string;
  let openUrl: string;
  const processes: WardProcess[] = [];
  const root = (method: string, path: string, body?: unknown) =>
    request(serverUrl, method, path, { token: 'root', body });
  /** The environment of a client process that has no token: no VAULT_TOKEN, no ~/.vault-token. */
  const clientEnv = (address: string) => {
    const { VAULT_TOKEN: _, ...env } = process.env;
    return { ...env, HOME: dir, VAULT_ADDR: address };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-proxy-'));
    ({ ward: server, url: serverUrl } = await startDevWard('root'));
    processes.push(server);
    assert.equal((await root('POST', 'sys/auth/userpass', { type: 'userpass' })).status, 204);
    assert.equal((await root('PUT', 'sys/policies/acl/app', { policy: APP_POLICY })).status, 204);
    assert.equal(
      (await root('POST', 'auth/userpass/users/app', { password: 'pw', token_policies: 'app' })).status,
      204,
    );
    await writeFile(join(dir, 'password'), 'pw\n');
    const started = await startProxy(
      dir,
      'proxy',
      `
vault { address = "${serverUrl}" }
listener "tcp" {
  address = "127.0.0.1:0"
  tls_disable = true
  require_request_header = true
  proxy_api { enable_quit = true }
}
listener "tcp" {
  address = "127.0.0.1:0"
  tls_disable = true
}
api_proxy { use_auto_auth_token = true }
auto_auth {
  method "userpass" {
    config = { username = "app", password_file_path = "${join(dir, 'password')}" }
  }
  sink "file" { config = { path = "${join(dir, 'token-0600')}", mode = 0600 } }
  sink "file" { config = { path = "${join(dir, 'token-default')}" } }
}
cache {}
`,
      2,
      /token written to sink[\s\S]*token written to sink/,
    );
    proxy = started.proxy;
    processes.push(proxy);
    [strictUrl = '', openUrl = ''] = started.urls;
  });
  after(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('writes its token to each sink with the configured mode (0640 by default); the token is valid', async () => {
    const token = await readFile(join(dir, 'token-0600'), 'utf8');
    assert.equal(await readFile(join(dir, 'token-default'), 'utf8'), token);
    assert.equal((await stat(join(dir, 'token-0600'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'token-default'))).mode & 0o777, 0o640);
    const self = await request(serverUrl, 'GET', 'auth/token/lookup-self', { token });
    assert.equal(self.status, 200);
    assert.equal(self.body.data.display_name, 'userpass-app');
  });

  it('node-vault with no token of its own writes, reads and lists (LIST) through the proxy', async () => {
    const { VAULT_TOKEN: saved } = process.env;
    delete process.env.VAULT_TOKEN; // node-vault falls back to it
    const vault = nodeVault({ endpoint: openUrl });
    if (saved !== undefined) process.env.VAULT_TOKEN = saved;
    assert.equal(vault.token, undefined);
    await vault.write('secret/data/node', { data: { from: 'node-vault' } });
    assert.deepEqual((await vault.read('secret/data/node')).data.data, { from: 'node-vault' });
    assert.ok((await vault.list('secret/metadata/')).data.keys.includes('node'));
    const direct = await root('GET', 'secret/data/node');
    assert.deepEqual(direct.body.data.data, { from: 'node-vault' }, 'the write reached the server');
  });

  it('hvac with no token of its own works through a listener that requires the request header', async () => {
    const { stdout } = await run(PYTHON, [HVAC_SCRIPT, strictUrl], { env: clientEnv(strictUrl), timeout: 60_000 });
    const seen = JSON.parse(stdout);
    assert.equal(seen.token_sent, null);
    assert.deepEqual(seen.read, { from: 'hvac' });
    assert.ok(seen.list.includes('hvac') && seen.list.includes('node'));
    assert.equal(seen.lookup_self.display_name, 'userpass-app', "lookup-self sees the proxy's token");
    assert.equal(seen.lookup_self.id, undefined, 'but not the token itself');
    assert.equal(seen.lookup_self.accessor, undefined);
  });

  it('answers 412 without X-Vault-Request on that listener; the ward CLI always sends it', async () => {
    const refused = await send(strictUrl, 'GET', 'secret/data/node', {});
    assert.deepEqual([refused.status, refused.body], [412, { errors: ['missing "X-Vault-Request" header'] }]);
    assert.equal((await send(strictUrl, 'GET', 'secret/data/node', { 'X-Service-Request': 'true' })).status, 200);
    assert.equal((await send(openUrl, 'GET', 'secret/data/node', {})).status, 200, 'the other listener does not ask');

    const get = await run(process.execPath, [WARD_BIN, 'read', '-format=json', 'secret/data/node'], {
      env: clientEnv(strictUrl),
    });
    assert.deepEqual(JSON.parse(get.stdout).data.data, { from: 'node-vault' });
    const list = await run(process.execPath, [WARD_BIN, 'list', 'secret/metadata/'], { env: clientEnv(strictUrl) });
    assert.match(list.stdout, /node/);
  });

  it('forwards the wrapping headers: the answer comes back wrapped, and unwraps through the proxy', async () => {
    for (const header of ['X-Vault-Wrap-TTL', 'X-Service-Wrap-TTL']) {
      const wrapped = await send(openUrl, 'GET', 'secret/data/node', { ...REQ, [header]: '5m' });
      assert.equal(wrapped.status, 200, header);
      assert.equal(wrapped.body.data, null, `${header}: the secret is not in the answer`);
      assert.equal(wrapped.body.wrap_info.ttl, 300);
      assert.equal(wrapped.body.wrap_info.creation_path, 'secret/data/node');
      const token = wrapped.body.wrap_info.token as string;
      const unwrapped = await send(openUrl, 'POST', 'sys/wrapping/unwrap', { ...REQ, 'X-Vault-Token': token });
      assert.equal(unwrapped.status, 200);
      assert.deepEqual(unwrapped.body.data.data, { from: 'node-vault' });
      const again = await send(openUrl, 'POST', 'sys/wrapping/unwrap', { ...REQ, 'X-Vault-Token': token });
      assert.notEqual(again.status, 200, 'a wrapping token is single-use');
    }
  });

  it('caches a token created through it, until revoked through it or cleared; KV reads are not cached', async () => {
    const create = () => send(openUrl, 'POST', 'auth/token/create', REQ, { display_name: 'cached', ttl: '1h' });
    const first = await create();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    const again = await create();
    assert.equal(again.headers.get('x-cache'), 'HIT');
    assert.equal(again.body.auth.client_token, first.body.auth.client_token, 'issued once');
    assert.ok(Number(again.headers.get('age')) >= 0);

    const token = first.body.auth.client_token as string;
    assert.equal((await send(openUrl, 'POST', 'auth/token/revoke', REQ, { token })).status, 204);
    assert.equal((await request(serverUrl, 'GET', 'auth/token/lookup-self', { token })).status, 403);
    const afterRevoke = await create();
    assert.equal(afterRevoke.headers.get('x-cache'), 'MISS');
    assert.notEqual(afterRevoke.body.auth.client_token, token);

    assert.equal((await create()).headers.get('x-cache'), 'HIT');
    const clear = await send(openUrl, 'POST', '../proxy/v1/cache-clear', REQ, { type: 'all' });
    assert.equal(clear.status, 200);
    assert.equal((await create()).headers.get('x-cache'), 'MISS');
    const badType = await send(openUrl, 'POST', '../proxy/v1/cache-clear', REQ, { type: 'everything' });
    assert.equal(badType.status, 400);

    const reads: TestResponse[] = [];
    for (let i = 0; i < 2; i++) reads.push(await send(openUrl, 'GET', 'secret/data/node', REQ));
    assert.deepEqual(
      reads.map((r) => r.headers.get('x-cache')),
      ['MISS', 'MISS'],
    );
  });

  it('logs in again when its token is revoked at the server, so the next request succeeds', async () => {
    const old = await readFile(join(dir, 'token-default'), 'utf8');
    assert.equal((await root('POST', 'auth/token/revoke', { token: old })).status, 204);
    const refused = await send(openUrl, 'GET', 'secret/data/node', REQ);
    assert.equal(refused.status, 403, 'the request made with the revoked token');
    const next = await send(openUrl, 'GET', 'secret/data/node', REQ);
    assert.equal(next.status, 200);
    const renewed = await readFile(join(dir, 'token-default'), 'utf8');
    assert.notEqual(renewed, old, 'the new token is in the sink');
  });

  it('exit_after_auth: logs in with token_file, writes the sink and exits 0', async () => {
    const created = await root('POST', 'auth/token/create', { policies: ['app'], ttl: '1h' });
    const token = created.body.auth.client_token as string;
    await writeFile(join(dir, 'given-token'), `${token}\n`);
    const file = join(dir, 'once.hcl');
    await writeFile(
      file,
      `vault { address = "${serverUrl}" }
exit_after_auth = true
auto_auth {
  method "token_file" { config = { token_file_path = "${join(dir, 'given-token')}" } }
  sink "file" { config = { path = "${join(dir, 'once-token')}" } }
}
`,
    );
    const once = startWard(['proxy', `-config=${file}`]);
    processes.push(once);
    assert.equal(await once.exited, 0, once.output());
    assert.equal(await readFile(join(dir, 'once-token'), 'utf8'), token);
  });

  it('forwards without auto-auth, writes its pid_file, and shuts down cleanly on SIGTERM', async () => {
    const pidFile = join(dir, 'plain.pid');
    const { proxy: plain, urls } = await startProxy(
      dir,
      'plain',
      `pid_file = "${pidFile}"
vault { address = "${serverUrl}" }
listener "tcp" {
  address = "127.0.0.1:0"
  tls_disable = true
}
`,
      1,
    );
    processes.push(plain);
    assert.equal((await readFile(pidFile, 'utf8')).trim(), String(plain.child.pid));
    const [url = ''] = urls;
    assert.equal((await send(url, 'GET', 'secret/data/node', {})).status, 403, 'no token, none added');
    const withToken = await send(url, 'GET', 'secret/data/node', { 'X-Vault-Token': 'root' });
    assert.deepEqual(withToken.body.data.data, { from: 'node-vault' });
    assert.equal(withToken.headers.get('x-cache'), null, 'no cache stanza, no cache');
    const chunked = await postChunked(`${url}/v1/secret/data/chunked`, ['{"data":', '{"k":"in two chunks"}}'], {
      'X-Vault-Token': 'root',
    });
    assert.equal(chunked, 200, 'a chunked body is streamed through');
    assert.deepEqual((await root('GET', 'secret/data/chunked')).body.data.data, { k: 'in two chunks' });

    plain.child.kill('SIGTERM');
    assert.equal(await plain.exited, 0);
    await assert.rejects(stat(pidFile), 'the pid file is removed');
  });

  it('exits 1 with one line when a listener address is taken, though another listener had bound', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const file = join(dir, 'taken.hcl');
    const listener = (address: string) => `listener "tcp" {\n  address = "${address}"\n  tls_disable = true\n}\n`;
    await writeFile(
      file,
      `vault { address = "${serverUrl}" }\n${listener('127.0.0.1:0')}${listener(`127.0.0.1:${port}`)}`,
    );
    const failed = startWard(['proxy', `-config=${file}`]);
    processes.push(failed);
    try {
      assert.equal(await failed.exited, 1);
      assert.match(failed.output(), new RegExp(`^Error: listener 127.0.0.1:${port}: address already in use$`, 'm'));
    } finally {
      taken.close();
    }
  });

  it('answers /proxy/v1/quit (POST or GET) only on the listener that enables it, then exits', async () => {
    assert.equal((await send(openUrl, 'POST', '../proxy/v1/quit', REQ)).status, 404);
    assert.equal((await send(openUrl, 'GET', '../proxy/v1/quit', REQ)).status, 404);
    assert.equal((await send(strictUrl, 'DELETE', '../proxy/v1/quit', REQ)).status, 405);
    assert.equal((await send(strictUrl, 'GET', '../proxy/v1/quit', REQ)).status, 200);
    assert.equal(await proxy.exited, 0);
  });
});
