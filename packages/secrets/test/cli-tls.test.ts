import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWard, tempHome } from '../src/cli/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

describe('ward client over TLS (ward server -dev-tls, generated CA)', () => {
  let server: WardProcess;
  let base: Record<string, string>;
  let caFile: string;
  before(async () => {
    server = startWard(['server', '-dev-tls', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0']);
    const [, url] = await server.waitFor(/export VAULT_ADDR='(https:\/\/[^']+)'/);
    [, caFile = ''] = await server.waitFor(/export VAULT_CACERT='([^']+)'/);
    await server.waitFor(/Root Token: root/);
    base = { VAULT_ADDR: url as string, VAULT_TOKEN: 'root', HOME: await tempHome() };
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('verifies the server with VAULT_CACERT (or -ca-cert)', async () => {
    const put = await runWard(['kv', 'put', 'secret/over-tls', 'k=v'], { ...base, VAULT_CACERT: caFile });
    assert.equal(put.code, 0, put.stderr);
    const get = await runWard(['kv', 'get', `-ca-cert=${caFile}`, '-field=k', 'secret/over-tls'], base);
    assert.equal(get.code, 0, get.stderr);
    assert.equal(get.stdout, 'v\n');
    assert.equal((await runWard(['status'], { ...base, VAULT_CACERT: caFile })).code, 0);
  });

  it('refuses the server without the CA: the certificate is verified by default', async () => {
    const run = await runWard(['kv', 'get', 'secret/over-tls'], base);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Error: GET https:\/\/127\.0\.0\.1:\d+\/v1\/.*(certificate|self[- ]signed)/i);
    // Issue 35: the error says how to fix it.
    assert.match(run.stderr, /-ca-cert=FILE or VAULT_CACERT/);
    assert.equal(run.stdout, '');
  });

  it('answers plain HTTP sent to the TLS listener in plain HTTP, as established (issue 35)', async () => {
    const plain = base.VAULT_ADDR?.replace('https://', 'http://') ?? '';
    const answer = await fetch(`${plain}/v1/sys/health`);
    assert.equal(answer.status, 400);
    assert.equal(await answer.text(), 'Client sent an HTTP request to an HTTPS server.\n');
    const run = await runWard(['status'], { ...base, VAULT_ADDR: plain });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Client sent an HTTP request to an HTTPS server/);
  });

  it('accepts any certificate with VAULT_SKIP_VERIFY=true or -tls-skip-verify', async () => {
    const env = await runWard(['kv', 'get', '-field=k', 'secret/over-tls'], { ...base, VAULT_SKIP_VERIFY: 'true' });
    assert.equal(env.code, 0, env.stderr);
    assert.equal(env.stdout, 'v\n');
    const flag = await runWard(['status', '-tls-skip-verify'], base);
    assert.equal(flag.code, 0, flag.stderr);
    const off = await runWard(['status'], { ...base, VAULT_SKIP_VERIFY: 'false' });
    assert.equal(off.code, 2, 'VAULT_SKIP_VERIFY=false still verifies');
    const garbage = await runWard(['status'], { ...base, VAULT_SKIP_VERIFY: 'maybe' });
    assert.equal(garbage.code, 2);
    assert.match(garbage.stderr, /could not parse VAULT_SKIP_VERIFY/);
  });

  it('reports an unreadable CA file as a usage problem', async () => {
    const run = await runWard(['status'], { ...base, VAULT_CACERT: '/nonexistent/ca.pem' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /cannot read the CA certificate \/nonexistent\/ca\.pem/);
  });
});
