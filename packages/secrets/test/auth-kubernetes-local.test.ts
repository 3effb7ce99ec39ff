import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubernetesBackendFactory, localServiceAccountIn } from '../src/auth/kubernetes/index.js';
import { testBackend } from '../src/framework/testing.js';
import { PermissionDeniedError, UpstreamError } from '../src/logical/errors.js';
import { type FakeKubernetes, startFakeKubernetes } from './fakes/kubernetes-api.js';

// Issue 31: without disable_local_ca_jwt, a config without kubernetes_ca_cert or token_reviewer_jwt
// takes the pod's own CA and token from the service account directory (the kubelet's mount; here a
// directory the test writes), read at each login; with it, those files are never read.

describe('kubernetes auth: the pod’s own CA and token', () => {
  let k8s: FakeKubernetes;
  let dir: string;
  let appJwt = '';

  before(async () => {
    k8s = await startFakeKubernetes();
    k8s.addServiceAccount('kube-system', 'ward');
    k8s.addServiceAccount('apps', 'web');
    appJwt = await k8s.projectedToken('apps', 'web');
    dir = await mkdtemp(join(tmpdir(), 'ward-k8s-sa-'));
    await writeFile(join(dir, 'ca.crt'), k8s.caPem);
    await writeFile(join(dir, 'token'), await k8s.projectedToken('kube-system', 'ward'));
  });
  after(async () => {
    await k8s.close();
    await rm(dir, { recursive: true, force: true });
  });

  const mount = async () => {
    const t = await testBackend(kubernetesBackendFactory(localServiceAccountIn(dir)));
    await t.write('role/web', {
      bound_service_account_names: 'web',
      bound_service_account_namespaces: 'apps',
      token_policies: 'web',
    });
    return t;
  };

  it('uses the local CA and reviewer token when the config sets neither', async () => {
    const t = await mount();
    await t.write('config', { kubernetes_host: k8s.url });
    assert.equal((await t.read('config'))?.data?.disable_local_ca_jwt, false);
    const before = k8s.reviews;
    const res = await t.write('login', { role: 'web', jwt: appJwt });
    assert.deepEqual(res?.login?.policies, ['web']);
    assert.equal(k8s.reviews, before + 1);
    // The token file is read at each login: a reviewer whose account is gone is refused by the cluster.
    k8s.addServiceAccount('kube-system', 'gone');
    await writeFile(join(dir, 'token'), await k8s.projectedToken('kube-system', 'gone'));
    k8s.deleteServiceAccount('kube-system', 'gone');
    await assert.rejects(t.write('login', { role: 'web', jwt: appJwt }), UpstreamError);
    await writeFile(join(dir, 'token'), await k8s.projectedToken('kube-system', 'ward'));
    assert.ok((await t.write('login', { role: 'web', jwt: appJwt }))?.login);
  });

  it('reads neither file with disable_local_ca_jwt', async () => {
    const t = await mount();
    await t.write('config', { kubernetes_host: k8s.url, disable_local_ca_jwt: true, pem_keys: [k8s.publicKeyPem] });
    // No CA: the API server's certificate is not trusted, so TokenReview cannot be asked (502).
    await assert.rejects(t.write('login', { role: 'web', jwt: appJwt }), UpstreamError);
    await t.write('config', { kubernetes_ca_cert: k8s.caPem });
    // No reviewer token either: the login's own JWT reviews itself, which the cluster allows.
    assert.ok((await t.write('login', { role: 'web', jwt: appJwt }))?.login);
    await assert.rejects(t.write('login', { role: 'web', jwt: `${appJwt}x` }), PermissionDeniedError);
  });
});
