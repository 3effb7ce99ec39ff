import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expectSuccess, runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward pki verify-sign` and `ward pki list-intermediates` as established, through bin/ward
// against bin/ward server -dev: a root, an intermediate it signed, and an unrelated root.

describe('ward pki verify-sign / list-intermediates (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  let intId = '';
  let otherId = '';
  const ward = (...args: string[]) => runWard(args, dev.env);
  const ok = async (...args: string[]) => expectSuccess(await ward(...args), args);
  const json = async (...args: string[]) => JSON.parse(await ok(...args, '-format=json'));

  before(async () => {
    dev = await startDevWard('root');
    for (const mount of ['pki', 'pki_int', 'pki_other']) await ok('secrets', 'enable', `-path=${mount}`, 'pki');
    await ok('write', 'pki/root/generate/internal', 'common_name=Root CA', 'issuer_name=root', 'ttl=24h');
    await ok('write', 'pki_other/root/generate/internal', 'common_name=Other CA', 'ttl=24h');
    const csr = (
      await ok('write', '-field=csr', 'pki_int/intermediate/generate/internal', 'common_name=Int CA')
    ).trim();
    const csrFile = join(dev.env.HOME ?? '', 'int.csr');
    await writeFile(csrFile, csr);
    const signed = (
      await ok(
        'write',
        '-field=certificate',
        'pki/root/sign-intermediate',
        `csr=@${csrFile}`,
        'common_name=Int CA',
        'ttl=12h',
      )
    ).trim();
    const certFile = join(dev.env.HOME ?? '', 'int.pem');
    await writeFile(certFile, signed);
    await ok('write', 'pki_int/intermediate/set-signed', `certificate=@${certFile}`);
    await ok('write', 'pki_int/issuer/default', 'issuer_name=int');
    intId = JSON.parse(await ok('list', '-format=json', 'pki_int/issuers'))[0];
    otherId = JSON.parse(await ok('list', '-format=json', 'pki_other/issuers'))[0];
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('verify-sign: the root signed the intermediate (JSON and table); an unrelated root did not', async () => {
    assert.deepEqual(await json('pki', 'verify-sign', 'pki/issuer/default', 'pki_int/issuer/default'), {
      key_id_match: true,
      path_match: false,
      signature_match: true,
      subject_match: true,
      trust_match: true,
    });
    const table = await ok('pki', 'verify-sign', '/pki/issuer/root/', 'pki_int/issuer/int');
    assert.match(table, /^issuer:pki\/issuer\/root\nissued:pki_int\/issuer\/int\n\n/);
    assert.match(table, /^field\s+value$/m);
    assert.match(table, /^signature_match\s+true$/m);
    assert.match(table, /^path_match\s+false$/m);
    assert.deepEqual(await json('pki', 'verify-sign', 'pki_other/issuer/default', 'pki_int/issuer/default'), {
      key_id_match: false,
      path_match: false,
      signature_match: false,
      subject_match: false,
      trust_match: false,
    });
    const self = await json('pki', 'verify-sign', 'pki/issuer/default', 'pki/issuer/default');
    assert.equal(self.trust_match, true, 'a root trusts itself');
  });

  it('verify-sign: a path without a certificate is an error', async () => {
    const run = await ward('pki', 'verify-sign', 'pki/issuer/default', 'pki/roles');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Error: /);
    assert.equal((await ward('pki', 'verify-sign', 'pki/issuer/default')).code, 2);
  });

  it('list-intermediates: every pki mount by default, or the mounts and paths given; the match flags', async () => {
    const all = await json('pki', 'list-intermediates', 'pki/issuer/default');
    assert.equal(all[`pki_int/issuer/${intId}`], true);
    assert.equal(all[`pki_other/issuer/${otherId}`], false);
    const named = await json('pki', 'list-intermediates', '-use_names', 'pki/issuer/default', 'pki_int', 'pki_other');
    assert.deepEqual(named, { 'pki_int/issuer/int': true, [`pki_other/issuer/${otherId}`]: false });
    const strict = await json('pki', 'list-intermediates', '-path_match', 'pki/issuer/default', 'pki_int');
    assert.deepEqual(strict, { [`pki_int/issuer/${intId}`]: false }, 'not in its ca_chain');
    const loose = await json(
      'pki',
      'list-intermediates',
      '-subject_match=false',
      '-key_id_match=false',
      '-direct_sign=false',
      '-indirect_sign=false',
      'pki/issuer/default',
      'pki_other',
    );
    assert.deepEqual(loose, { [`pki_other/issuer/${otherId}`]: true }, 'nothing asked for: everything matches');
    const table = await ok('pki', 'list-intermediates', 'pki/issuer/default', 'pki_int/issuer/int');
    assert.match(table, /^intermediate\s+match\?$/m);
    assert.match(table, /^pki_int\/issuer\/int\s+true$/m);
  });
});
