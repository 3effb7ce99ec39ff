import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfigFile } from './config.js';

describe('server configuration file', () => {
  const load = async (text: string, name = 'ward.hcl') => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-config-'));
    try {
      await writeFile(join(dir, name), text);
      return await loadConfigFile(join(dir, name));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const listener = 'listener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n';

  it('takes `backend` as the legacy name of a storage block (hvac’s example configs use it), in HCL and JSON', async () => {
    // Issue 18: hvac's tests/config_files/vault-tls.hcl starts with `backend "inmem" {}`.
    assert.deepEqual((await load(`backend "inmem" {\n}\n${listener}`)).storage, { type: 'inmem', path: undefined });
    const json = { backend: { inmem: {} }, listener: { tcp: { address: '127.0.0.1:0', tls_disable: true } } };
    assert.equal((await load(JSON.stringify(json), 'ward.json')).storage.type, 'inmem');
  });

  it('refuses a storage block and a backend block together', async () => {
    await assert.rejects(load(`storage "inmem" {}\nbackend "inmem" {}\n${listener}`), { code: 'invalid_request' });
  });

  it('accepts default_lease_ttl and max_lease_ttl restating the system 768h, and refuses other values', async () => {
    // Issue 18: hvac's vault-tls.hcl sets both to "768h".
    const ttls = (d: string, m: string) => `default_lease_ttl = "${d}"\nmax_lease_ttl = "${m}"\n`;
    const config = await load(`backend "inmem" {}\n${listener}${ttls('768h', '768h')}`);
    assert.equal(config.storage.type, 'inmem');
    await assert.rejects(load(`backend "inmem" {}\n${listener}${ttls('1h', '768h')}`), { code: 'invalid_request' });
  });

  it('reads kms_library "pkcs11" stanzas by name, case-insensitively unique (issue 16)', async () => {
    const lib = (name: string, path: string) =>
      `kms_library "pkcs11" {\n  name = "${name}"\n  library = "${path}"\n}\n`;
    const config = await load(`storage "inmem" {}\n${listener}${lib('SoftHSM', '/a.so')}${lib('other', '/b.so')}`);
    assert.deepEqual(
      [...config.kmsLibraries],
      [
        ['softhsm', '/a.so'],
        ['other', '/b.so'],
      ],
    );
    await assert.rejects(load(`storage "inmem" {}\n${listener}${lib('x', '/a.so')}${lib('X', '/b.so')}`), {
      code: 'invalid_request',
    });
    await assert.rejects(load(`storage "inmem" {}\n${listener}kms_library "pkcs11" {\n  name = "x"\n}\n`), {
      code: 'invalid_request',
    });
    await assert.rejects(
      load(`storage "inmem" {}\n${listener}kms_library "tpm" {\n  name = "x"\n  library = "/a"\n}\n`),
      {
        code: 'invalid_request',
      },
    );
  });
});
