import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward pki issue` as established, through bin/ward against bin/ward server -dev: the CSR made
// on the child mount, signed by the parent issuer, the certificate and its parent imported.

describe('ward pki issue (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  const ward = (...args: string[]) => runWard(args, dev.env);
  const ok = async (...args: string[]) => {
    const run = await ward(...args);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  before(async () => {
    dev = await startDevWard('root');
    for (const mount of ['pki', 'pki_int', 'pki_table', 'pki_fail', 'pki_src', 'pki_re']) {
      await ok('secrets', 'enable', `-path=${mount}`, 'pki');
    }
    await ok('write', 'pki/root/generate/internal', 'common_name=Root CA', 'issuer_name=root', 'ttl=24h');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('makes a named intermediate signed by the parent, with the parent beside it (JSON)', async () => {
    const out = await ok(
      'pki',
      'issue',
      '-issuer_name=int',
      '-format=json',
      'pki/issuer/root',
      'pki_int',
      'common_name=Intermediate CA',
      'ttl=12h',
    );
    const issuer = JSON.parse(out).data;
    assert.equal(issuer.issuer_name, 'int');
    assert.equal(issuer.ca_chain.length, 2);
    const names = await Promise.all(
      JSON.parse(await ok('list', '-format=json', 'pki_int/issuers')).map(async (id: string) =>
        (await ok('read', '-field=issuer_name', `pki_int/issuer/${id}`)).trim(),
      ),
    );
    assert.deepEqual(names.sort(), ['int', 'root'], 'the parent is imported under its reference');
    assert.deepEqual(
      await JSON.parse(await ok('pki', 'verify-sign', '-format=json', 'pki/issuer/root', 'pki_int/issuer/int')),
      {
        key_id_match: true,
        path_match: true,
        signature_match: true,
        subject_match: true,
        trust_match: true,
      },
    );
  });

  it('prints the new issuer as a table by default; the parent at issuer/default keeps no name', async () => {
    const out = await ok('pki', 'issue', 'pki/issuer/default', 'pki_table', 'common_name=Table CA');
    assert.match(out, /^issuer_id\s+\S+$/m);
    assert.match(out, /^certificate\s+-----BEGIN CERTIFICATE-----/m);
    const ids: string[] = JSON.parse(await ok('list', '-format=json', 'pki_table/issuers'));
    assert.equal(ids.length, 2);
  });

  it('pki reissue makes an intermediate like the template: subject, names, key; K=V pairs change it', async () => {
    await ok(
      'pki',
      'issue',
      '-issuer_name=src',
      'pki/issuer/root',
      'pki_src',
      'common_name=Source CA',
      'organization=Acme',
      'ou=Ops',
      'alt_names=ca.example.com',
      'key_type=ec',
      'key_bits=384',
      'ttl=10h',
    );
    const out = await ok(
      'pki',
      'reissue',
      '-issuer_name=re',
      '-format=json',
      'pki/issuer/root',
      'pki_src/issuer/src',
      'pki_re',
      'ttl=5h',
    );
    const issued = new X509Certificate(JSON.parse(out).data.certificate);
    const source = new X509Certificate((await ok('read', '-field=certificate', 'pki_src/issuer/src')).trim());
    assert.equal(issued.subject, source.subject);
    assert.match(issued.subject, /O=Acme/);
    assert.equal(issued.subjectAltName, 'DNS:ca.example.com');
    assert.equal(issued.publicKey.asymmetricKeyDetails?.namedCurve, 'secp384r1');
    assert.notEqual(
      issued.publicKey.export({ format: 'der', type: 'spki' }).toString('hex'),
      source.publicKey.export({ format: 'der', type: 'spki' }).toString('hex'),
      'a new key',
    );
    const hours = (issued.validToDate.getTime() - issued.validFromDate.getTime()) / 3_600_000;
    assert.ok(hours > 4.9 && hours <= 5.01, `ttl=5h overrides the template's 10h: ${hours}`);
    assert.equal(issued.ca, true);
    assert.equal((await ward('pki', 'reissue', 'pki/issuer/root', 'pki_src/roles', 'pki_re')).code, 2);
  });

  it('refuses a parent that is not an issuer path, or too few arguments, before sending', async () => {
    const notIssuer = await ward('pki', 'issue', 'pki', 'pki_fail', 'common_name=x');
    assert.equal(notIssuer.code, 2);
    assert.match(notIssuer.stderr, /is not an issuer path/);
    assert.equal((await ward('pki', 'issue', 'pki/issuer/root', 'pki_fail')).code, 2);
  });

  it('says what was made and how to go on when the parent refuses to sign', async () => {
    // A parent whose key is not on its mount: only the certificate was imported there.
    await ok('secrets', 'enable', '-path=pki_nokey', 'pki');
    const pem = join(dev.env.HOME ?? '', 'root.pem');
    await writeFile(pem, await ok('read', '-field=certificate', 'pki/issuer/root'));
    await ok('write', 'pki_nokey/issuers/import/cert', `pem_bundle=@${pem}`);
    const [keyless] = JSON.parse(await ok('list', '-format=json', 'pki_nokey/issuers'));
    const run = await ward('pki', 'issue', `pki_nokey/issuer/${keyless}`, 'pki_fail', 'common_name=Fail CA');
    assert.equal(run.code, 2, run.stdout);
    assert.match(run.stderr, /signing the CSR failed: Error making API request/);
    assert.match(run.stderr, /A CSR was made on pki_fail with the new key \S+\./);
    assert.match(run.stderr, /-----BEGIN CERTIFICATE REQUEST-----/);
    assert.match(run.stderr, /To undo: `ward delete pki_fail\/key\/\S+`/);
  });
});
