import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import nodeVault from 'node-vault';
import { startDevWard, type WardProcess } from './ward-process.js';

// Issue 13, point 5: response wrapping through hvac's and node-vault's own wrapping calls, against
// the real binary.

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../test/fixtures/clients/hvac_wrapping.py', import.meta.url));
const run = promisify(execFile);

type Step = { ok: unknown } | { error: string; errors: string[] };

describe('response wrapping with real clients against bin/ward server -dev', () => {
  let ward: WardProcess | undefined;
  let url: string;
  before(async () => {
    ({ ward, url } = await startDevWard('root'));
  });
  after(() => ward?.child.kill('SIGKILL'));

  it('hvac: wraps a read, a new token and arbitrary data, and unwraps each once', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, url, 'root'], { timeout: 60_000 });
    const seen = JSON.parse(stdout) as Record<string, Step>;
    const ok = <T>(name: string): T => {
      const step = seen[name];
      assert.ok(step && 'ok' in step, `${name}: ${JSON.stringify(step)}`);
      return step.ok as T;
    };
    const read = ok<{ data: unknown; wrap_info: { ttl: number; creation_path: string } }>('read_wrapped');
    assert.equal(read.data, null);
    assert.deepEqual([read.wrap_info.ttl, read.wrap_info.creation_path], [300, 'secret/data/wrapped']);
    assert.deepEqual(ok<{ data: { data: unknown } }>('unwrap_as_token').data.data, { password: 'p4ss' });
    assert.deepEqual(seen.unwrap_again, {
      error: 'InvalidRequest',
      errors: ['wrapping token is not valid or does not exist'],
    });

    const created = ok<{ wrap_info: { wrapped_accessor: string } }>('create_wrapped');
    const lookup = ok<{ creation_path: string; creation_time: string; creation_ttl: number }>('lookup');
    assert.deepEqual([lookup.creation_path, lookup.creation_ttl], ['auth/token/create', 120]);
    assert.ok(Math.abs(Date.parse(lookup.creation_time) - Date.now()) < 60_000, lookup.creation_time);
    const unwrapped = ok<{ auth: { accessor: string } }>('unwrap_by_root');
    assert.equal(unwrapped.auth.accessor, created.wrap_info.wrapped_accessor);
    assert.equal(ok('issued_is_authenticated'), true);

    assert.equal(ok<{ creation_path: string }>('wrap').creation_path, 'sys/wrapping/wrap');
    assert.deepEqual(ok('unwrap_data'), { db: 'pw' });
  });

  it('node-vault: wraps a read and a token create through requestOptions, unwraps with both forms of unwrap', async () => {
    const root = nodeVault({ apiVersion: 'v1', endpoint: url, token: 'root' });
    const wrapHeaders = { headers: { 'X-Vault-Wrap-TTL': '5m' } };
    await root.write('secret/data/nv', { data: { k: 'v' } });

    const read = await root.read('secret/data/nv', wrapHeaders);
    assert.equal(read.data, null);
    const holder = nodeVault({ apiVersion: 'v1', endpoint: url, token: read.wrap_info.token });
    assert.deepEqual((await holder.unwrap()).data.data, { k: 'v' });

    const created = await root.tokenCreate({ policies: ['default'], requestOptions: wrapHeaders });
    assert.equal(created.auth, null);
    const unwrapped = await root.unwrap({ token: created.wrap_info.token });
    assert.equal(unwrapped.auth.accessor, created.wrap_info.wrapped_accessor);
    await assert.rejects(
      root.unwrap({ token: created.wrap_info.token }),
      (err: Error & { response?: { statusCode: number } }) => {
        assert.equal(err.response?.statusCode, 400);
        return true;
      },
    );
  });
});
