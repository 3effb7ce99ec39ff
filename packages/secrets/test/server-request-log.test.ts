import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { startDevWard, type WardProcess } from './ward-process.js';

const ROOT_TOKEN = 'hvs.RootTokenNeverLogged4711';
const SECRET_VALUE = 'S3cretValueNeverLogged0815';

// Issue 21, point 7: one structured line per request at debug, denials at info, and never a
// token or a secret in the log.
describe('ward server -log-level=debug: request logs', () => {
  let server: WardProcess;
  let env: Record<string, string>;
  let limitedToken = '';
  before(async () => {
    ({ ward: server, env } = await startDevWard(ROOT_TOKEN, ['-log-level=debug']));
    assert.equal((await runWard(['kv', 'put', 'secret/app', `password=${SECRET_VALUE}`], env)).code, 0);
    assert.equal((await runWard(['kv', 'get', '-field=password', 'secret/app'], env)).stdout, `${SECRET_VALUE}\n`);
    const created = await runWard(['token', 'create', '-policy=default', '-field=token'], env);
    limitedToken = created.stdout.trim();
    const denied = await runWard(['read', 'secret/data/app'], { ...env, VAULT_TOKEN: limitedToken });
    assert.equal(denied.code, 2);
    await server.waitFor(/permission denied/);
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('writes one line per request with method, path, status, duration and an accessor digest', () => {
    const log = server.output();
    assert.match(
      log,
      /\[DEBUG\] request: .*method=PUT path=\/v1\/secret\/data\/app status=200 duration_ms=[\d.]+ namespace= accessor_digest=hmac-sha256:[0-9a-f]{16}/,
    );
    assert.match(log, /\[DEBUG\] request: .*method=GET path=\/v1\/secret\/data\/app status=200/);
  });

  it('logs a denial at info with the path and the policies that decided it', () => {
    assert.match(
      server.output(),
      /\[INFO\] +permission denied: .*path=secret\/data\/app operation=read policies=\["default"\] decision=/,
    );
  });

  it('never writes a token or a secret value', () => {
    const log = server.output().replace(/Root Token: .*\n/, '');
    assert.equal(log.includes(ROOT_TOKEN), false, 'the root token is in the log');
    assert.equal(log.includes(limitedToken), false, 'a token is in the log');
    assert.equal(log.includes(SECRET_VALUE), false, 'a secret value is in the log');
  });
});
