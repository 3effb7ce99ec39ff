import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import { runWardInProcess } from '../src/cli/testing.js';
import { request } from '../src/server/testing.js';
import { startSqliteWard, startWard, type WardProcess } from './ward-process.js';

/**
 * `ward operator migrate` (issue 29: moving data between storage backends): a store written by a
 * server on SQLite is copied offline into PostgreSQL, and a server there unseals with the same key
 * and reads what was written.
 */
describe('ward operator migrate', () => {
  let dir: string;
  let postgres: PostgresServer;
  const wards: WardProcess[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-migrate-'));
    postgres = await PostgresServer.start();
  });
  after(async () => {
    for (const w of wards) w.child.kill('SIGKILL');
    await Promise.all(wards.map((w) => w.exited));
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('copies every entry into an empty destination, which then unseals with the same key', async () => {
    const source = await startSqliteWard(dir);
    wards.push(source.ward);
    const written = await request(source.url, 'PUT', 'secret/app', {
      token: source.rootToken,
      body: { password: 'moved' },
    });
    assert.equal(written.status, 204);
    source.ward.child.kill('SIGTERM');
    assert.equal(await source.ward.exited, 0);

    const url = await postgres.createDatabase();
    const migration = join(dir, 'migrate.hcl');
    await writeFile(
      migration,
      `storage_source "sqlite" {\n  path = "${source.databasePath}"\n}\n` +
        `storage_destination "postgresql" {\n  connection_url = "${url}"\n}\n`,
    );
    const run = await runWardInProcess(['operator', 'migrate', `-config=${migration}`], { HOME: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Success! All of the keys have been migrated/);

    const config = join(dir, 'pg.hcl');
    await writeFile(
      config,
      `storage "postgresql" {\n  connection_url = "${url}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    const target = startWard(['server', `-config=${config}`]);
    wards.push(target);
    const [, targetUrl = ''] = await target.waitFor(/listening: url=(http:\/\/\S+)/, 60_000);
    assert.equal((await request(targetUrl, 'GET', 'sys/init')).body.initialized, true);
    const unsealed = await request(targetUrl, 'PUT', 'sys/unseal', { body: { key: source.unsealKey } });
    assert.equal(unsealed.body.sealed, false);
    const read = await request(targetUrl, 'GET', 'secret/app', { token: source.rootToken });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.password, 'moved');

    // Into a store that already holds data: refused, nothing changed.
    const again = await runWardInProcess(['operator', 'migrate', `-config=${migration}`], { HOME: dir });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /not empty/);
  });

  it('refuses a file without both blocks, or with a key the storage type does not have', async () => {
    const bad = join(dir, 'bad.hcl');
    await writeFile(bad, 'storage_source "inmem" {}\n');
    assert.equal((await runWardInProcess(['operator', 'migrate', `-config=${bad}`], { HOME: dir })).code, 1);
    await writeFile(bad, 'storage_source "file" {\n  path = "/x"\n  paht = "/y"\n}\nstorage_destination "inmem" {}\n');
    const typo = await runWardInProcess(['operator', 'migrate', `-config=${bad}`], { HOME: dir });
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /unknown key "paht"/);
  });
});
