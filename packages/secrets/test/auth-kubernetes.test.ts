import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeKubernetes, startFakeKubernetes } from './fakes/kubernetes-api.js';

// Issue 31: the kubernetes auth method against a protocol-level fake of the API server's TokenReview.

describe('kubernetes auth method', () => {
  let t: TestServer;
  let k8s: FakeKubernetes;
  let reviewerJwt = '';
  let appUid = '';
  const login = (role: string, jwt: string, mount = 'kubernetes') =>
    t.request('POST', `auth/${mount}/login`, { token: null, body: { role, jwt } });

  before(async () => {
    k8s = await startFakeKubernetes();
    k8s.addServiceAccount('kube-system', 'vault-reviewer');
    reviewerJwt = await k8s.projectedToken('kube-system', 'vault-reviewer');
    appUid = k8s.addServiceAccount('apps', 'web');
    k8s.addServiceAccount('apps', 'batch-1');
    k8s.addServiceAccount('other', 'web');
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/kubernetes', { type: 'kubernetes' });
    await t.ok('POST', 'auth/kubernetes/config', {
      kubernetes_host: k8s.url,
      kubernetes_ca_cert: k8s.caPem,
      token_reviewer_jwt: reviewerJwt,
    });
    await t.ok('POST', 'auth/kubernetes/role/web', {
      bound_service_account_names: 'web,batch-*',
      bound_service_account_namespaces: 'apps',
      token_policies: 'web',
      token_ttl: '1h',
    });
  });
  after(async () => {
    await t.stop();
    await k8s.close();
  });

  it('keeps config (the reviewer JWT unread) and roles, and refuses roles without bounds', async () => {
    const config = (await t.ok('GET', 'auth/kubernetes/config')).data;
    assert.equal(config.kubernetes_host, k8s.url);
    assert.equal(config.token_reviewer_jwt, undefined);
    assert.equal(config.disable_iss_validation, true);
    const role = (await t.ok('GET', 'auth/kubernetes/role/WEB')).data;
    assert.deepEqual(role.bound_service_account_names, ['web', 'batch-*']);
    assert.equal(role.alias_name_source, 'serviceaccount_uid');
    assert.deepEqual((await t.ok('LIST', 'auth/kubernetes/role')).data.keys, ['web']);
    for (const body of [
      { bound_service_account_namespaces: 'a' },
      { bound_service_account_names: 'a' },
      { bound_service_account_names: '*,a', bound_service_account_namespaces: 'a' },
      { bound_service_account_names: 'a', bound_service_account_namespaces: 'a', alias_name_source: 'x' },
    ])
      assert.equal((await t.request('POST', 'auth/kubernetes/role/bad', { body })).status, 400, JSON.stringify(body));
    assert.equal((await t.request('POST', 'auth/kubernetes/config', { body: { kubernetes_host: '' } })).status, 400);
    const noCa = { kubernetes_host: k8s.url, disable_local_ca_jwt: true };
    assert.equal((await t.request('POST', 'sys/auth/k8s-noca', { body: { type: 'kubernetes' } })).status, 204);
    assert.equal((await t.request('POST', 'auth/k8s-noca/config', { body: noCa })).status, 400);
  });

  it('logs a bound service account in through TokenReview (projected and legacy tokens)', async () => {
    const before = k8s.reviews;
    const res = await login('web', await k8s.projectedToken('apps', 'web'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(k8s.reviews, before + 1, 'the cluster was asked');
    assert.deepEqual(res.body.auth.token_policies, ['default', 'web']);
    assert.equal(res.body.auth.lease_duration, 3600);
    assert.deepEqual(res.body.auth.metadata, {
      role: 'web',
      service_account_name: 'web',
      service_account_namespace: 'apps',
      service_account_secret_name: '',
      service_account_uid: appUid,
    });
    const entity = (await t.ok('GET', `identity/entity/id/${res.body.auth.entity_id}`)).data;
    assert.equal(entity.aliases[0].name, appUid);
    const legacy = await login('web', await k8s.legacyToken('apps', 'batch-1'));
    assert.equal(legacy.status, 200, JSON.stringify(legacy.body));
    assert.equal(legacy.body.auth.metadata.service_account_secret_name, 'batch-1-token-abcde');
  });

  it('refuses unbound accounts, deleted accounts, expired tokens and wrong audiences with 403', async () => {
    assert.equal((await login('web', await k8s.projectedToken('other', 'web'))).status, 403, 'namespace');
    assert.equal((await login('web', await k8s.projectedToken('kube-system', 'vault-reviewer'))).status, 403, 'name');
    k8s.addServiceAccount('apps', 'batch-2');
    const doomed = await k8s.projectedToken('apps', 'batch-2');
    k8s.deleteServiceAccount('apps', 'batch-2');
    const deleted = await login('web', doomed);
    assert.equal(deleted.status, 403, JSON.stringify(deleted.body));
    assert.match(deleted.body.errors[0], /service account unauthorized/);
    assert.equal((await login('web', await k8s.projectedToken('apps', 'web', { expiresInS: -60 }))).status, 403);
    await t.ok('POST', 'auth/kubernetes/role/aud', {
      bound_service_account_names: 'web',
      bound_service_account_namespaces: 'apps',
      audience: 'ward',
    });
    assert.equal((await login('aud', await k8s.projectedToken('apps', 'web'))).status, 403, 'audience');
    const right = await login('aud', await k8s.projectedToken('apps', 'web', { audience: 'ward' }));
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal((await login('web', 'garbage')).status, 400);
    assert.equal((await login('nope', await k8s.projectedToken('apps', 'web'))).status, 400);
  });

  it('verifies locally with pem_keys, and names aliases by service account with alias_name_source', async () => {
    await t.ok('POST', 'sys/auth/k8s-pem', { type: 'kubernetes' });
    await t.ok('POST', 'auth/k8s-pem/config', {
      kubernetes_host: k8s.url,
      kubernetes_ca_cert: k8s.caPem,
      pem_keys: [k8s.publicKeyPem],
    });
    await t.ok('POST', 'auth/k8s-pem/role/web', {
      bound_service_account_names: '*',
      bound_service_account_namespaces: 'apps',
      alias_name_source: 'serviceaccount_name',
    });
    const res = await login('web', await k8s.projectedToken('apps', 'web'), 'k8s-pem');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const entity = (await t.ok('GET', `identity/entity/id/${res.body.auth.entity_id}`)).data;
    assert.equal(entity.aliases[0].name, 'apps/web');
  });

  it('binds namespaces by their labels with bound_service_account_namespace_selector', async () => {
    k8s.addServiceAccount('team-a', 'web');
    k8s.addServiceAccount('team-b', 'web');
    k8s.labelNamespace('team-a', { tier: 'web', env: 'prod' });
    k8s.labelNamespace('team-b', { tier: 'db' });
    const selector = JSON.stringify({
      matchLabels: { tier: 'web' },
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }],
    });
    await t.ok('POST', 'auth/kubernetes/role/labelled', {
      bound_service_account_names: 'web',
      bound_service_account_namespace_selector: selector,
    });
    const res = await login('labelled', await k8s.projectedToken('team-a', 'web'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await login('labelled', await k8s.projectedToken('team-b', 'web'))).status, 403);
    const bad = await t.request('POST', 'auth/kubernetes/role/labelled', {
      body: { bound_service_account_namespace_selector: '{not json' },
    });
    assert.equal(bad.status, 400);
  });

  it('answers 502 when the API server cannot be asked or does not trust the reviewer', async () => {
    await t.ok('POST', 'sys/auth/k8s-bad', { type: 'kubernetes' });
    await t.ok('POST', 'auth/k8s-bad/config', {
      kubernetes_host: k8s.url,
      kubernetes_ca_cert: k8s.caPem,
      token_reviewer_jwt: 'not-a-token',
    });
    await t.ok('POST', 'auth/k8s-bad/role/web', {
      bound_service_account_names: 'web',
      bound_service_account_namespaces: 'apps',
    });
    assert.equal((await login('web', await k8s.projectedToken('apps', 'web'), 'k8s-bad')).status, 502);
    // No CA: the API server's certificate is not trusted.
    await t.ok('POST', 'auth/k8s-bad/config', {
      kubernetes_host: k8s.url,
      kubernetes_ca_cert: '',
      token_reviewer_jwt: reviewerJwt,
    });
    assert.equal((await login('web', await k8s.projectedToken('apps', 'web'), 'k8s-bad')).status, 502);
    // A CA of the right shape that does not parse is kept (as established) and fails the login's TLS.
    const garbled = '-----BEGIN CERTIFICATE-----\\n.....\\n-----END CERTIFICATE-----';
    await t.ok('POST', 'auth/k8s-bad/config', { kubernetes_host: k8s.url, kubernetes_ca_cert: garbled });
    assert.equal((await t.ok('GET', 'auth/k8s-bad/config')).data.kubernetes_ca_cert, garbled);
    assert.equal((await login('web', await k8s.projectedToken('apps', 'web'), 'k8s-bad')).status, 502);
    await t.ok('POST', 'auth/k8s-bad/config', {
      kubernetes_host: 'https://127.0.0.1:1',
      kubernetes_ca_cert: k8s.caPem,
    });
    assert.equal((await login('web', await k8s.projectedToken('apps', 'web'), 'k8s-bad')).status, 502);
  });
});
