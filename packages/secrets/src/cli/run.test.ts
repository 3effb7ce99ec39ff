import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFetchDouble } from '@ward/secrets-client/testing';
import { runWardInProcess } from './testing.js';

const SEALED = {
  type: 'shamir',
  initialized: true,
  sealed: true,
  t: 2,
  n: 3,
  progress: 1,
  nonce: '',
  version: '1.0.0',
  build_date: '',
  migration: false,
  recovery_seal: false,
  storage_type: 'inmem',
};

// The whole command line (table, flags, output, exit status) in process, against the client's fetch double.
describe('runCli in process against the fetch double', () => {
  it('sends the address, token and namespace of the given environment, and exits 2 while sealed', async () => {
    const double = createFetchDouble().on('GET', 'sys/seal-status', { status: 200, body: SEALED });
    const env = { VAULT_ADDR: 'http://ward.test', VAULT_TOKEN: 'tok-1', VAULT_NAMESPACE: 'team', HOME: '/nonexistent' };
    const run = await runWardInProcess(['status', '-format=json'], env, '', double.fetch);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(JSON.parse(run.stdout).sealed, true);
    assert.equal(double.calls.length, 1);
    assert.equal(double.calls[0]?.headers['x-vault-token'], 'tok-1');
    assert.equal(double.calls[0]?.headers['x-vault-namespace'], 'team');
  });

  it("tells the server's established text in Ward's name, on stderr, with exit 2", async () => {
    const double = createFetchDouble().on('GET', 'sys/seal-status', {
      status: 503,
      body: { errors: ['Vault is sealed'] },
    });
    const run = await runWardInProcess(['status'], { VAULT_ADDR: 'http://ward.test', HOME: '/x' }, '', double.fetch);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^Error: .*Ward is sealed/s);
    assert.doesNotMatch(run.stderr, /Vault is sealed/);
  });

  it('reads nothing of the process environment: without VAULT_ADDR it asks the default address', async () => {
    const double = createFetchDouble().on('GET', 'sys/seal-status', { status: 200, body: SEALED });
    const asked: string[] = [];
    const fetch: typeof double.fetch = (url, init) => {
      asked.push(String(url));
      return double.fetch(url, init);
    };
    const saved = { addr: process.env.VAULT_ADDR, token: process.env.VAULT_TOKEN };
    process.env.VAULT_ADDR = 'http://from-the-process.test';
    process.env.VAULT_TOKEN = 'process-token';
    try {
      assert.equal((await runWardInProcess(['status'], { HOME: '/x' }, '', fetch)).code, 2);
    } finally {
      for (const [name, value] of [
        ['VAULT_ADDR', saved.addr],
        ['VAULT_TOKEN', saved.token],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    assert.deepEqual(asked, ['https://127.0.0.1:8200/v1/sys/seal-status']);
    assert.equal(double.calls[0]?.headers['x-vault-token'], undefined);
  });

  it('answers -help and usage mistakes without a request, and writes stdin-fed values', async () => {
    const double = createFetchDouble().on('PUT', 'sys/policies/acl/reader', { status: 204 });
    const help = await runWardInProcess(['policy', 'write', '-help'], {}, '', double.fetch);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: ward policy write/);
    const bad = await runWardInProcess(['policy', 'write', '-bogus'], {}, '', double.fetch);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^Error: flag provided but not defined: -bogus\n/);
    assert.equal(double.calls.length, 0);
    const env = { VAULT_ADDR: 'http://ward.test', VAULT_TOKEN: 't', HOME: '/x' };
    const policy = 'path "secret/*" { capabilities = ["read"] }';
    const write = await runWardInProcess(['policy', 'write', 'reader', '-'], env, policy, double.fetch);
    assert.equal(write.code, 0, write.stderr);
    assert.match(write.stdout, /Success! Uploaded policy: reader/);
    assert.deepEqual(double.calls[0]?.body, { policy });
  });
});
