import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { cryptoRandom, FakeClock } from '@ward/base';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { createPkiBackend } from './backend.js';

// Issue 32: other SANs, per-issuer AIA URLs (with templates), unified CRL settings. Certificates
// are read back with the openssl CLI, an implementation independent of the one that made them.

async function pki() {
  const clock = new FakeClock('2030-01-01T00:00:00Z');
  const t = await testBackend(createPkiBackend, { clock, random: cryptoRandom, maxLeaseTtlSeconds: 10 * 365 * 86400 });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const ok = async (path: string, body?: Record<string, unknown>): Promise<any> => (await t.write(path, body))?.data;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const get = async (path: string): Promise<any> => (await t.read(path))?.data;
  return { t, ok, get };
}

const opensslText = (pem: string) => execFileSync('openssl', ['x509', '-noout', '-text'], { input: pem }).toString();

describe('pki other SANs, issuer URLs, unified CRLs', () => {
  it('puts other_sans the role allows into the SAN extension as OtherName UTF8 strings, and refuses others', async () => {
    const { t, ok } = await pki();
    await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec' });
    await ok('roles/upn', {
      allow_any_name: true,
      allowed_other_sans: '1.3.6.1.4.1.311.20.2.3;UTF8:*@example.com,1.2.3.4;utf-8:fixed',
    });
    const issued = await ok('issue/upn', {
      common_name: 'host.example.com',
      other_sans: '1.3.6.1.4.1.311.20.2.3;UTF8:devops@example.com,1.2.3.4;UTF8:fixed',
    });
    const text = opensslText(issued.certificate);
    assert.match(text, /othername: ?UPN:+devops@example\.com/i, text);
    assert.match(text, /DNS:host\.example\.com/);
    const der = execFileSync('openssl', ['x509', '-outform', 'DER'], { input: issued.certificate });
    const dump = execFileSync('openssl', ['asn1parse', '-inform', 'DER'], { input: der }).toString();
    // [0] { OID 1.2.3.4, [0] EXPLICIT UTF8String "fixed" } in the SAN extension's value.
    assert.match(dump, /A00E06032A0304A0070C056669786564/);
    for (const other_sans of ['1.3.6.1.4.1.311.20.2.3;UTF8:devops@evil.com', '1.2.3.4;UTF8:other', '2.9;UTF8:x'])
      await assert.rejects(
        t.write('issue/upn', { common_name: 'host.example.com', other_sans }),
        /not allowed by this role/,
        other_sans,
      );
    await assert.rejects(
      t.write('issue/upn', { common_name: 'h.example.com', other_sans: 'no-type' }),
      InvalidRequestError,
    );
    await assert.rejects(t.write('roles/bad', { allowed_other_sans: '1.2.3;IA5:x' }), InvalidRequestError);
    await ok('roles/anything', { allow_any_name: true, allowed_other_sans: '*' });
    const any = await ok('issue/anything', { common_name: 'a.example', other_sans: '1.2.3.5;UTF8:whatever' });
    assert.ok(any.certificate);
  });

  it('writes an issuer’s own AIA URLs, templated with issuer_id and cluster_path, instead of config/urls', async () => {
    const { t, ok, get } = await pki();
    const root = await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec', issuer_name: 'root' });
    await ok('config/urls', { issuing_certificates: 'http://global.example/ca' });
    await ok('roles/web', { allow_any_name: true });
    assert.match(opensslText((await ok('issue/web', { common_name: 'a.example' })).certificate), /global\.example/);
    await assert.rejects(
      t.write('issuer/root', { issuing_certificates: '{{cluster_path}}/issuer/{{issuer_id}}/der' }),
      /enable_aia_url_templating/,
    );
    const updated = await ok('issuer/root', {
      enable_aia_url_templating: true,
      issuing_certificates: '{{cluster_path}}/issuer/{{issuer_id}}/der',
      crl_distribution_points: '{{cluster_path}}/issuer/{{issuer_id}}/crl/der',
      ocsp_servers: '{{cluster_aia_path}}/ocsp',
    });
    assert.equal(updated.enable_aia_url_templating, true);
    assert.deepEqual((await get('issuer/root')).ocsp_servers, ['{{cluster_aia_path}}/ocsp']);
    await assert.rejects(t.write('issue/web', { common_name: 'b.example' }), /config\/cluster/);
    await ok('config/cluster', { path: 'https://ward.example:8200/v1/pki', aia_path: 'http://aia.example/v1/pki' });
    const text = opensslText((await ok('issue/web', { common_name: 'c.example' })).certificate);
    assert.match(text, new RegExp(`CA Issuers - URI:https://ward.example:8200/v1/pki/issuer/${root.issuer_id}/der`));
    assert.match(text, new RegExp(`URI:https://ward.example:8200/v1/pki/issuer/${root.issuer_id}/crl/der`));
    assert.match(text, /OCSP - URI:http:\/\/aia\.example\/v1\/pki\/ocsp/);
    assert.doesNotMatch(text, /global\.example/);
    await ok('issuer/root', { issuing_certificates: '', crl_distribution_points: '', ocsp_servers: '' });
    assert.match(opensslText((await ok('issue/web', { common_name: 'd.example' })).certificate), /global\.example/);
    await assert.rejects(t.write('issuer/root', { ocsp_servers: 'ftp://x' }), /invalid URL/);
  });

  it('fills config/urls templates per issuer with enable_templating, and refuses them without it', async () => {
    const { t, ok, get } = await pki();
    const template = {
      issuing_certificates: '{{cluster_path}}/issuer/{{issuer_id}}/der',
      ocsp_servers: 'http://o.example',
    };
    await assert.rejects(t.write('config/urls', template), /enable_templating is not set/);
    await ok('config/urls', { ...template, enable_templating: true });
    assert.equal((await get('config/urls')).enable_templating, true);
    const root = await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec' });
    const rootText = opensslText(root.certificate);
    assert.doesNotMatch(rootText, /\{\{/, 'a new root has no id to fill in: templated URLs are left out');
    assert.match(rootText, /OCSP - URI:http:\/\/o\.example/);
    await ok('roles/web', { allow_any_name: true });
    await assert.rejects(t.write('issue/web', { common_name: 'a.example' }), /config\/cluster/);
    await ok('config/cluster', { path: 'https://ward.example:8200/v1/pki' });
    const text = opensslText((await ok('issue/web', { common_name: 'b.example' })).certificate);
    assert.match(text, new RegExp(`CA Issuers - URI:https://ward.example:8200/v1/pki/issuer/${root.issuer_id}/der`));
    await assert.rejects(t.write('config/urls', { enable_templating: false }), /enable_templating is not set/);
    await ok('config/urls', { enable_templating: false, issuing_certificates: 'http://plain.example/ca' });
    assert.match(opensslText((await ok('issue/web', { common_name: 'c.example' })).certificate), /plain\.example/);
  });

  it('keeps unified_crl settings as established; unified-crl and unified-ocsp are the local ones', async () => {
    const { t, ok, get } = await pki();
    await ok('root/generate/internal', { common_name: 'Root', key_type: 'ec' });
    await assert.rejects(t.read('unified-crl'), NotFoundError, 'off by default');
    await assert.rejects(t.write('config/crl', { unified_crl: true }), /requires auto_rebuild/);
    await assert.rejects(t.write('config/crl', { unified_crl_on_existing_paths: true }), /unified_crl is disabled/);
    const set = await ok('config/crl', { auto_rebuild: true, unified_crl: true, cross_cluster_revocation: true });
    assert.deepEqual([set.unified_crl, set.cross_cluster_revocation], [true, true]);
    assert.equal((await get('config/crl')).unified_crl, true);
    const local = (await t.read('crl'))?.raw?.body;
    const unified = (await t.read('unified-crl'))?.raw?.body;
    assert.ok(Buffer.isBuffer(unified));
    assert.deepEqual(unified, local);
    const crlText = execFileSync('openssl', ['crl', '-inform', 'DER', '-noout', '-text'], {
      input: unified as Buffer,
    }).toString();
    assert.match(crlText, /Issuer: CN ?= ?Root/);
    assert.ok((await t.read('issuer/default/unified-crl/pem'))?.raw);
  });
});
