import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeKubernetes, startFakeKubernetes } from './fakes/kubernetes-api.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 31 (Kubernetes): `bound_service_account_namespace_selector` accepted as YAML as well as
// JSON (the established server decodes either), through bin/ward against the fake API server.

const ROOT = 'root-k8s-selector';

describe('kubernetes auth namespace selector in YAML, through bin/ward', () => {
  let k8s: FakeKubernetes;
  let dev: DevWard;
  const login = async (role: string, namespace: string) =>
    dev.call('POST', 'auth/kubernetes/login', { role, jwt: await k8s.projectedToken(namespace, 'web') }, null);

  before(async () => {
    k8s = await startFakeKubernetes();
    k8s.addServiceAccount('kube-system', 'vault-reviewer');
    for (const ns of ['team-a', 'team-b', 'team-c']) k8s.addServiceAccount(ns, 'web');
    k8s.labelNamespace('team-a', { tier: 'web', env: 'prod' });
    k8s.labelNamespace('team-b', { tier: 'web', env: 'dev' });
    k8s.labelNamespace('team-c', { tier: 'db', env: 'prod' });
    dev = await startDevWard(ROOT);
    await dev.ok('POST', 'sys/auth/kubernetes', { type: 'kubernetes' });
    await dev.ok('POST', 'auth/kubernetes/config', {
      kubernetes_host: k8s.url,
      kubernetes_ca_cert: k8s.caPem,
      token_reviewer_jwt: await k8s.projectedToken('kube-system', 'vault-reviewer'),
    });
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await k8s?.close();
  });

  it('binds namespaces by a selector written in YAML, block or flow style', async () => {
    const block = [
      'matchLabels:',
      '  tier: web',
      'matchExpressions:',
      '  - key: env',
      '    operator: In',
      '    values: [prod]',
      '',
    ];
    await dev.ok('POST', 'auth/kubernetes/role/yaml-block', {
      bound_service_account_names: 'web',
      bound_service_account_namespace_selector: block.join('\n'),
    });
    assert.equal(
      (await dev.ok('GET', 'auth/kubernetes/role/yaml-block')).data.bound_service_account_namespace_selector,
      block.join('\n'),
    );
    assert.equal((await login('yaml-block', 'team-a')).status, 200);
    assert.equal((await login('yaml-block', 'team-b')).status, 403, 'env is dev');
    assert.equal((await login('yaml-block', 'team-c')).status, 403, 'tier is db');

    await dev.ok('POST', 'auth/kubernetes/role/yaml-flow', {
      bound_service_account_names: 'web',
      bound_service_account_namespace_selector: 'matchLabels: {env: prod}',
    });
    assert.equal((await login('yaml-flow', 'team-c')).status, 200);
    assert.equal((await login('yaml-flow', 'team-b')).status, 403);
  });

  it('refuses a selector that is no label selector, in YAML as in JSON, with 400', async () => {
    for (const selector of [
      'matchLabels:\n- stage: prod\n- app: vault\n',
      'matchLabels: [a',
      '{"matchLabels": "x"}',
      '- a',
    ]) {
      const res = await dev.call('POST', 'auth/kubernetes/role/bad', {
        bound_service_account_names: 'web',
        bound_service_account_namespace_selector: selector,
      });
      assert.equal(res.status, 400, `${JSON.stringify(selector)}: ${JSON.stringify(res.body)}`);
    }
  });
});
