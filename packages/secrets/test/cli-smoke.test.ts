import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, expectSuccess, startCliHarness } from '../src/cli/testing.js';

// The CLI tests run `ward` in process (runWardInProcess); this file runs one command of every
// command group through bin/ward, so the launcher, the compiled entry point and the real streams
// stay exercised. `server`, `proxy`, `monitor` and `debug` have process tests of their own
// (ward-process.ts, proxy.test.ts, cli-monitor.test.ts), prompts on a terminal cli-prompts.test.ts,
// TLS from the environment cli-tls.test.ts.
describe('bin/ward: one command of each group as a child process', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());
  const ok = async (args: string[], stdin?: string) => expectSuccess(await cli.wardProcess(args, stdin), args);

  it('version, status, operator, secrets, auth, audit, policy, namespace, path-help, completion', async () => {
    assert.match(await ok(['version']), /^Ward v\d+\.\d+\.\d+/);
    assert.match(await ok(['status']), /^Sealed\s+false$/m);
    assert.match(await ok(['operator', 'key-status']), /^Key Term\s+1$/m);
    assert.match(await ok(['secrets', 'list']), /^secret\/\s+kv/m);
    assert.match(await ok(['auth', 'list']), /^token\/\s+token/m);
    assert.deepEqual(JSON.parse(await ok(['audit', 'list', '-format=json'])), {});
    assert.match(await ok(['policy', 'write', 'reader', '-'], 'path "secret/*" { capabilities = ["read"] }'), /reader/);
    assert.match(await ok(['policy', 'list']), /^reader$/m);
    assert.match(await ok(['namespace', 'create', 'team']), /^path\s+team\/$/m);
    assert.match(await ok(['path-help', 'sys/health']), /health of the server/);
    assert.match(await ok(['completion', 'bash']), /_ward/);
  });

  it('kv, write / read / list / patch / delete, token, login, print, unwrap, lease', async () => {
    assert.match(await ok(['kv', 'put', 'secret/app', 'pw=x']), /version\s+1/);
    assert.equal(await ok(['kv', 'get', '-field=pw', 'secret/app']), 'x\n');
    await ok(['write', 'secret/data/raw', '-'], '{"data":{"a":"b"}}');
    await ok(['patch', 'secret/data/raw', '-'], '{"data":{"c":"d"}}');
    assert.deepEqual(JSON.parse(await ok(['read', '-format=json', 'secret/data/raw'])).data.data, { a: 'b', c: 'd' });
    assert.match(await ok(['list', 'secret/metadata']), /^raw$/m);
    assert.match(await ok(['delete', 'secret/metadata/raw']), /Success! Data deleted/);

    const token = (await ok(['token', 'create', '-policy=reader', '-field=token'])).trim();
    const login = await cli.wardProcess(['login', token]);
    assert.equal(login.code, 0, login.stderr);
    assert.match(await ok(['token', 'lookup']), /^id\s+/m);
    assert.equal(await ok(['print', 'token']), `${cli.server.rootToken}\n`);

    const wrapped = JSON.parse(await ok(['token', 'create', '-wrap-ttl=5m', '-format=json'])).wrap_info.token;
    assert.match(await ok(['unwrap', wrapped]), /^token\s+\S+$/m);
    const lease = await cli.wardProcess(['lease', 'lookup', 'no/such/lease']);
    assert.equal(lease.code, 2, 'an API error exits 2 through the launcher');
    assert.match(lease.stderr, /^Error: /);
  });
});
