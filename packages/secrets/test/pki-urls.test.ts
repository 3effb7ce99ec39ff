import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 32: config/urls templates and delta CRL distribution points through bin/ward; the
// certificate and the CRL fetched without a token are read with the openssl CLI.

const ROOT = 'pki-urls-root';

describe('bin/ward: templated config/urls and Freshest CRL', () => {
  let dev: DevWard;
  const call = async (method: string, path: string, body?: unknown, token: string | undefined = ROOT) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['x-vault-token'] = token;
    return fetch(`${dev.url}/v1/${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  };
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await call(method, path, body);
    const text = await r.text();
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  before(async () => {
    dev = await startDevWard(ROOT);
  });
  after(() => {
    dev?.ward.child.kill('SIGKILL');
  });

  it('issues with filled-in templates and names the delta CRLs in the leaf and the complete CRL', async () => {
    await ok('POST', 'sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '87600h' } });
    const root = (
      await ok('POST', 'pki/root/generate/internal', { common_name: 'Root', key_type: 'ec', ttl: '87600h' })
    ).data;
    const templated = {
      enable_templating: true,
      issuing_certificates: '{{cluster_aia_path}}/issuer/{{issuer_id}}/der',
      delta_crl_distribution_points: '{{cluster_path}}/issuer/{{issuer_id}}/crl/delta/der',
    };
    const refused = await call('POST', 'pki/config/urls', { ...templated, enable_templating: false });
    assert.equal(refused.status, 400, await refused.text());
    await ok('POST', 'pki/config/urls', templated);
    await ok('POST', 'pki/config/cluster', { path: `${dev.url}/v1/pki`, aia_path: 'http://aia.example/v1/pki' });
    await ok('POST', 'pki/config/crl', { auto_rebuild: true, enable_delta: true });
    await ok('POST', 'pki/roles/web', { allow_any_name: true });
    const leaf = (await ok('POST', 'pki/issue/web', { common_name: 'a.example', ttl: '1h' })).data.certificate;
    const text = execFileSync('openssl', ['x509', '-noout', '-text'], { input: leaf }).toString();
    assert.match(text, new RegExp(`CA Issuers - URI:http://aia.example/v1/pki/issuer/${root.issuer_id}/der`));
    assert.match(
      text,
      /X509v3 Freshest CRL:\s+Full Name:\s+URI:http:\/\/127\.0\.0\.1:\d+\/v1\/pki\/issuer\/[-0-9a-f]+\/crl\/delta\/der/,
    );
    await ok('GET', 'pki/crl/rotate');
    const crl = await call('GET', 'pki/crl', undefined, undefined);
    assert.equal(crl.status, 200);
    const crlText = execFileSync('openssl', ['crl', '-inform', 'DER', '-noout', '-text'], {
      input: Buffer.from(await crl.arrayBuffer()),
    }).toString();
    assert.match(
      crlText,
      new RegExp(`Freshest CRL:\\s+Full Name:\\s+URI:${dev.url}/v1/pki/issuer/${root.issuer_id}/crl/delta/der`),
    );
    const delta = await call('GET', `pki/issuer/${root.issuer_id}/crl/delta/der`, undefined, undefined);
    assert.equal(delta.status, 200, 'the named delta CRL is served without a token');
  });
});
