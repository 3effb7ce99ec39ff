import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfigFile } from './config.js';

// Issue 29 point 4: the `seal` stanzas of the established configuration.

describe('seal stanzas', () => {
  const load = async (seals: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-seal-config-'));
    try {
      const file = join(dir, 'ward.hcl');
      await writeFile(file, `storage "inmem" {}\nlistener "tcp" {\n  tls_disable = true\n}\n${seals}`);
      return await loadConfigFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const refusedWith = async (seals: string, pattern: RegExp) =>
    assert.rejects(load(seals), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'invalid_request');
      assert.match(err.message, pattern);
      return true;
    });

  it('parses a pkcs11 stanza into typed settings (AES-GCM by default), naming the keys it does not act on', async () => {
    const config = await load(`seal "pkcs11" {
  lib = "/usr/lib/softhsm/libsofthsm2.so"
  slot = "2305843009213693953"
  pin = "1234"
  key_label = "ward-seal"
  hmac_key_label = "ward-hmac"
  generate_key = "true"
}
`);
    const stanza = config.seals?.enabled;
    assert.equal(stanza?.type, 'pkcs11');
    assert.equal(stanza?.disabled, false);
    assert.deepEqual(stanza?.settings, {
      provider: 'pkcs11',
      lib: '/usr/lib/softhsm/libsofthsm2.so',
      slot: 2305843009213693953n,
      tokenLabel: undefined,
      pin: '1234',
      keyLabel: 'ward-seal',
      keyId: undefined,
      mechanism: 0x1087,
      generateKey: true,
      rsaOaepHash: 'sha256',
    });
    assert.deepEqual(stanza?.inertKeys, ['hmac_key_label']);
  });

  it('takes the established names as aliases of the spec’s (awskms is alphakms) and keeps the name written', async () => {
    const config = await load('seal "awskms" {\n  region = "eu-west-1"\n  kms_key_id = "alias/ward"\n}\n');
    assert.equal(config.seals?.enabled?.type, 'awskms');
    assert.equal(config.seals?.enabled?.settings.provider, 'alphakms');
    for (const [name, provider] of [
      ['azurekeyvault', 'betakeyvault'],
      ['gcpckms', 'gammackms'],
    ]) {
      const body =
        name === 'azurekeyvault'
          ? 'tenant_id = "t"\n client_id = "c"\n client_secret = "s"\n vault_name = "v"\n key_name = "k"'
          : 'project = "p"\n key_ring = "r"\n crypto_key = "k"';
      assert.equal((await load(`seal "${name}" {\n ${body}\n}\n`)).seals?.enabled?.settings.provider, provider);
    }
  });

  it('reads a disabled stanza as the seal a migration moves from, with or without a new one', async () => {
    const transit = 'address = "https://a:8200"\n token = "t"\n key_name = "k"\n mount_path = "transit/"';
    const toShamir = await load(`seal "transit" {\n ${transit}\n disabled = "true"\n}\n`);
    assert.equal(toShamir.seals?.enabled, undefined);
    assert.equal(toShamir.seals?.disabled?.settings.provider, 'transit');
    assert.equal((await load(`seal "transit" {\n ${transit}\n disabled = "T"\n}\n`)).seals?.enabled, undefined);
    await assert.rejects(
      load(`seal "transit" {\n ${transit}\n disabled = "yes"\n}\n`),
      /disabled must be true or false/,
    );
    const both = await load(
      `seal "transit" {\n ${transit}\n disabled = "true"\n}\nseal "pkcs11" {\n lib = "x"\n pin = "1"\n key_id = "0x01"\n}\n`,
    );
    assert.equal(both.seals?.enabled?.type, 'pkcs11');
    assert.equal(both.seals?.disabled?.type, 'transit');
  });

  it('refuses an unknown type, an unknown key, a missing required key, two enabled seals and an unsupported mechanism', async () => {
    await refusedWith('seal "ocikms" {}\n', /unknown seal type "ocikms"/);
    await refusedWith(
      'seal "awskms" {\n kms_key_id = "k"\n kms_key = "x"\n}\n',
      /unknown key "kms_key" in seal "awskms"/,
    );
    await refusedWith('seal "awskms" {\n region = "x"\n}\n', /kms_key_id is required/);
    await refusedWith(
      'seal "awskms" {\n kms_key_id = "a"\n}\nseal "gcpckms" {\n project = "p"\n key_ring = "r"\n crypto_key = "k"\n}\n',
      /only one seal may be enabled/,
    );
    await refusedWith(
      'seal "pkcs11" {\n lib = "x"\n pin = "1"\n key_label = "k"\n mechanism = "0x1082"\n}\n',
      /mechanism/,
    );
  });
});
