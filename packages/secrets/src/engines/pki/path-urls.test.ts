import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { cryptoRandom, FakeClock } from '@ward/base';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { createPkiBackend } from './backend.js';

// Issue 32: config/urls templates ({{issuer_id}}, {{cluster_path}}, {{cluster_aia_path}}) and delta
// CRL distribution points (the Freshest CRL extension), read back with the openssl CLI.

async function pki() {
  const clock = new FakeClock('2030-01-01T00:00:00Z');
  const t = await testBackend(createPkiBackend, { clock, random: cryptoRandom, maxLeaseTtlSeconds: 10 * 365 * 86400 });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const ok = async (path: string, body?: Record<string, unknown>): Promise<any> => await t.write(path, body);
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const get = async (path: string): Promise<any> => (await t.read(path))?.data;
  return { t, ok, get };
}

const certText = (pem: string) => execFileSync('openssl', ['x509', '-noout', '-text'], { input: pem }).toString();
const crlText = (der: Buffer) =>
  execFileSync('openssl', ['crl', '-inform', 'DER', '-noout', '-text'], { input: der }).toString();
/** The lines openssl prints under an extension's heading, up to the next heading. */
const section = (text: string, heading: string) => text.split(heading)[1]?.split(/X509v3 (?!.*URI)|Signature/)[0] ?? '';

describe('pki config/urls templates and delta CRL distribution points', () => {
  it('fills config/urls templates from config/cluster and the issuer when enable_templating is set', async () => {
    const { t, ok, get } = await pki();
    const templated = {
      issuing_certificates: '{{cluster_path}}/issuer/{{issuer_id}}/der',
      crl_distribution_points: '{{cluster_path}}/issuer/{{issuer_id}}/crl/der',
      ocsp_servers: '{{cluster_aia_path}}/ocsp',
    };
    await assert.rejects(t.write('config/urls', templated), /enable_templating is not set/);
    await assert.rejects(
      t.write('config/urls', { enable_templating: true, ocsp_servers: 'ftp://x' }),
      InvalidRequestError,
    );
    const root = (await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec', issuer_name: 'r' })).data;
    const written = await ok('config/urls', {
      ...templated,
      enable_templating: true,
      ocsp_servers: 'http://plain/ocsp',
    });
    assert.equal(written.data.enable_templating, true);
    assert.match(
      written.warnings?.join('\n') ?? '',
      /issuance may fail: .*config\/cluster/,
      'a warning, as established',
    );
    assert.deepEqual((await get('config/urls')).issuing_certificates, [templated.issuing_certificates]);
    await ok('roles/web', { allow_any_name: true });
    await assert.rejects(t.write('issue/web', { common_name: 'a.example' }), /config\/cluster does not set path/);
    await ok('config/urls', { ocsp_servers: templated.ocsp_servers });
    await ok('config/cluster', { path: 'https://ward.example:8200/v1/pki' });
    const noAia = await ok('issue/web', { common_name: 'b.example' });
    assert.match(
      certText(noAia.data.certificate),
      /OCSP - URI:https:\/\/ward\.example:8200\/v1\/pki\/ocsp/,
      'aia_path falls back to path',
    );
    await ok('config/cluster', { path: 'https://ward.example:8200/v1/pki', aia_path: 'http://aia.example/v1/pki' });
    const text = certText((await ok('issue/web', { common_name: 'c.example' })).data.certificate);
    assert.match(text, new RegExp(`CA Issuers - URI:https://ward.example:8200/v1/pki/issuer/${root.issuer_id}/der`));
    assert.match(text, new RegExp(`URI:https://ward.example:8200/v1/pki/issuer/${root.issuer_id}/crl/der`));
    assert.match(text, /OCSP - URI:http:\/\/aia\.example\/v1\/pki\/ocsp/);
    assert.doesNotMatch(text, /\{\{/);
    // A new root has no issuer id to fill in yet: templated URLs are left out of it.
    const second = (await ok('issuers/generate/root/internal', { common_name: 'Second', key_type: 'ec' })).data;
    assert.doesNotMatch(certText(second.certificate), /Authority Information Access|CRL Distribution/);
    await ok('config/urls', {
      enable_templating: false,
      issuing_certificates: '',
      crl_distribution_points: '',
      ocsp_servers: '',
    });
    assert.equal((await get('config/urls')).enable_templating, false);
    await assert.rejects(t.write('config/urls', { ocsp_servers: '{{cluster_path}}/ocsp' }), /enable_templating/);
  });

  it('writes delta CRL distribution points as Freshest CRL into certificates and complete CRLs', async () => {
    const { t, ok, get } = await pki();
    await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec', issuer_name: 'root' });
    await assert.rejects(t.write('config/urls', { delta_crl_distribution_points: 'mailto:x' }), /invalid URL/);
    await ok('config/urls', {
      crl_distribution_points: 'http://ca.example/crl',
      delta_crl_distribution_points: 'http://ca.example/crl/delta',
    });
    assert.deepEqual((await get('config/urls')).delta_crl_distribution_points, ['http://ca.example/crl/delta']);
    await ok('roles/web', { allow_any_name: true });
    const leaf = certText((await ok('issue/web', { common_name: 'a.example' })).data.certificate);
    assert.match(section(leaf, 'X509v3 Freshest CRL'), /URI:http:\/\/ca\.example\/crl\/delta/, leaf);
    assert.match(section(leaf, 'X509v3 CRL Distribution Points'), /URI:http:\/\/ca\.example\/crl\n/, leaf);
    const crlOf = async (path: string) => (await t.read(path))?.raw?.body as Buffer;
    assert.doesNotMatch(crlText(await crlOf('crl')), /Freshest CRL/, 'no delta CRLs, no pointer to them');
    await ok('config/crl', { auto_rebuild: true, enable_delta: true });
    // The issuer's own URLs replace config/urls, delta points included.
    const updated = await ok('issuer/root', { delta_crl_distribution_points: 'http://own.example/delta' });
    assert.deepEqual(updated.data.delta_crl_distribution_points, ['http://own.example/delta']);
    await t.read('crl/rotate');
    const complete = crlText(await crlOf('crl'));
    assert.match(section(complete, 'X509v3 Freshest CRL'), /URI:http:\/\/own\.example\/delta/, complete);
    const delta = crlText(await crlOf('crl/delta'));
    assert.match(delta, /Delta CRL Indicator/);
    assert.doesNotMatch(delta, /Freshest CRL/, 'a delta CRL does not point at delta CRLs');
    const own = certText((await ok('issue/web', { common_name: 'b.example' })).data.certificate);
    assert.match(section(own, 'X509v3 Freshest CRL'), /own\.example\/delta/);
    assert.doesNotMatch(own, /ca\.example/, 'the issuer’s URLs replace the mount’s');
  });
});
