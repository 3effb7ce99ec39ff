import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 17: automated snapshot configurations, and the schedule on the core's scheduler (fake clock).
describe('sys/storage/raft/snapshot-auto', () => {
  const clock = new FakeClock('2026-01-01T00:00:00Z');
  let t: TestServer;
  let dir: string;
  before(async () => {
    t = await startTestServer({ clock });
    dir = await mkdtemp(join(tmpdir(), 'ward-snapshot-auto-'));
  });
  after(async () => {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Moves the fake clock second by second, letting each scheduled run finish. */
  async function tickFor(seconds: number) {
    for (let i = 0; i < seconds; i++) {
      clock.advance(1_000);
      await t.server.core.scheduler.settled();
    }
  }
  const local = (extra: Record<string, unknown> = {}) => ({
    interval: '10s',
    retain: 2,
    path_prefix: join(dir, 'snaps'),
    storage_type: 'local',
    local_max_space: 100_000_000,
    ...extra,
  });

  it('stores a local config and reads back exactly its six fields, interval in seconds', async () => {
    assert.equal(
      (
        await t.request('POST', 'sys/storage/raft/snapshot-auto/config/daily', {
          body: local({ interval: '24h', retain: '7' }),
        })
      ).status,
      204,
    );
    const read = await t.request('GET', 'sys/storage/raft/snapshot-auto/config/daily');
    assert.deepEqual(read.body.data, {
      file_prefix: 'vault-snapshot',
      interval: 86400,
      local_max_space: 100_000_000,
      path_prefix: join(dir, 'snaps'),
      retain: 7,
      storage_type: 'local',
    });
    const list = await t.request('LIST', 'sys/storage/raft/snapshot-auto/config');
    assert.deepEqual(list.body.data.keys, ['daily']);
    assert.equal((await t.request('DELETE', 'sys/storage/raft/snapshot-auto/config/daily')).status, 204);
    assert.equal((await t.request('GET', 'sys/storage/raft/snapshot-auto/config/daily')).status, 404);
  });

  it('accepts both name families, reads back the names written, and never returns secrets', async () => {
    const spec = {
      interval: 3600,
      path_prefix: 'snaps',
      storage_type: 'alpha-s3',
      alpha_s3_bucket: 'b',
      alpha_s3_region: 'eu-west-1',
      alpha_access_key_id: 'AKIAEXAMPLE',
      alpha_secret_access_key: 'hidden',
    };
    assert.equal((await t.request('POST', 'sys/storage/raft/snapshot-auto/config/s3', { body: spec })).status, 204);
    const read = (await t.request('GET', 'sys/storage/raft/snapshot-auto/config/s3')).body.data;
    assert.equal(read.alpha_s3_bucket, 'b');
    assert.equal(read.alpha_secret_access_key, undefined);
    const established = {
      interval: 60,
      path_prefix: 'p/',
      storage_type: 'azure-blob',
      azure_container_name: 'c',
      azure_account_name: 'account',
    };
    assert.equal(
      (await t.request('POST', 'sys/storage/raft/snapshot-auto/config/az', { body: established })).status,
      204,
    );
    assert.equal(
      (await t.request('GET', 'sys/storage/raft/snapshot-auto/config/az')).body.data.azure_container_name,
      'c',
    );
    for (const name of ['s3', 'az']) await t.request('DELETE', `sys/storage/raft/snapshot-auto/config/${name}`);
  });

  it('refuses bad configs with 400', async () => {
    const bad: Record<string, unknown>[] = [
      local({ local_max_space: undefined }),
      local({ interval: undefined }),
      local({ interval: 0 }),
      local({ retain: 0 }),
      local({ storage_type: 'ftp' }),
      local({ path_prefix: undefined }),
      local({ alpha_s3_bucket: 'not for local' }),
      { interval: 60, path_prefix: 'p', storage_type: 'gamma-gcs', gamma_gcs_bucket: 'b' },
      { interval: 60, path_prefix: 'p/', storage_type: 'beta-blob' },
      {
        interval: 60,
        path_prefix: 'p/',
        storage_type: 'gamma-gcs',
        gamma_gcs_bucket: 'b',
        gamma_service_account_key: '{',
      },
      {
        interval: 60,
        path_prefix: 'p/',
        storage_type: 'google-gcs',
        google_gcs_bucket: 'b',
        google_service_account_key: '{"client_email":"a@b.c"}',
      },
      {
        interval: 60,
        path_prefix: 'p/',
        storage_type: 'gamma-gcs',
        gamma_gcs_bucket: 'b',
        gamma_endpoint: 'http://[x',
      },
      { interval: 60, path_prefix: 'p', storage_type: 'aws-s3', aws_s3_bucket: 'b' },
      {
        interval: 60,
        path_prefix: 'p',
        storage_type: 'aws-s3',
        aws_s3_bucket: 'b',
        aws_s3_region: 'r',
        aws_s3_enable_kms: true,
        aws_s3_server_side_encryption: true,
      },
    ];
    for (const body of bad) {
      const res = await t.request('POST', 'sys/storage/raft/snapshot-auto/config/bad', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.equal((await t.request('GET', 'sys/storage/raft/snapshot-auto/config/bad')).status, 404);
  });

  it('snapshots every interval to local, keeps the retain newest, and records the status', async () => {
    assert.equal((await t.request('POST', 'sys/storage/raft/snapshot-auto/config/loc', { body: local() })).status, 204);
    await tickFor(1);
    const first = (await t.request('GET', 'sys/storage/raft/snapshot-auto/status/loc')).body.data;
    assert.equal(first.last_snapshot_error, '');
    assert.match(first.last_snapshot_url, /^file:\/\/.*\/vault-snapshot-\d{19}\.snap$/);
    assert.equal(first.snapshot_url, first.last_snapshot_url);
    assert.match(first.last_snapshot_start, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await tickFor(35);
    const files = (await readdir(join(dir, 'snaps'))).sort();
    assert.equal(files.length, 2, files.join(' '));
    assert.ok(files.every((f) => /^vault-snapshot-\d{19}\.snap$/.test(f)));
    assert.equal((await t.request('DELETE', 'sys/storage/raft/snapshot-auto/config/loc')).status, 204);
  });

  it('fails an attempt that would exceed local_max_space and says so; a larger allowance recovers', async () => {
    const tight = local({ path_prefix: join(dir, 'tight'), local_max_space: 10, file_prefix: 'tight' });
    assert.equal((await t.request('POST', 'sys/storage/raft/snapshot-auto/config/tight', { body: tight })).status, 204);
    await tickFor(1);
    const failed = (await t.request('GET', 'sys/storage/raft/snapshot-auto/status/tight')).body.data;
    assert.match(failed.last_snapshot_error, /local_max_space/);
    assert.equal(failed.snapshot_url, '');
    assert.deepEqual(await readdir(join(dir, 'tight')), []);

    await t.request('POST', 'sys/storage/raft/snapshot-auto/config/tight', {
      body: { ...tight, local_max_space: 100_000_000 },
    });
    await tickFor(11);
    const recovered = (await t.request('GET', 'sys/storage/raft/snapshot-auto/status/tight')).body.data;
    assert.equal(recovered.last_snapshot_error, '');
    assert.match(recovered.snapshot_url, /tight-\d{19}\.snap$/);
  });

  it('needs sudo for configs', async () => {
    await t.request('PUT', 'sys/policies/acl/auto', {
      body: {
        policy: 'path "sys/storage/raft/snapshot-auto/*" { capabilities = ["create", "read", "update", "list"] }',
      },
    });
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['auto'] } });
    const token = created.body.auth.client_token;
    const res = await t.request('POST', 'sys/storage/raft/snapshot-auto/config/x', { token, body: local() });
    assert.equal(res.status, 403);
  });
});
