import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { browse, type OpenIdProvider, startOpenIdProvider } from './openid-provider.js';
import { startWorkersWard, type WorkersWard, workerRequest } from './workers.testing.js';

// Issue 31 point 3: an OIDC login started through one worker (auth_url) finishes through any
// other (callback): the flow's state, nonce and PKCE verifier are in the shared storage.

const REDIRECT = 'http://localhost:8250/oidc/callback';
const WORKERS = [1, 2, 3];

describe('oidc login with workers = 3 through bin/ward', () => {
  let dir: string;
  let w: WorkersWard;
  let op: OpenIdProvider;
  const call = (id: number, method: string, path: string, body?: unknown, token: string | null = w.rootToken) =>
    workerRequest(w.socketOf(id), method, path, { ...(token ? { token } : {}), body });
  const ok = async (id: number, method: string, path: string, body?: unknown) => {
    const res = await call(id, method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  };
  const authUrl = async (id: number) => {
    const res = await call(id, 'POST', 'auth/oidc/oidc/auth_url', { role: 'web', redirect_uri: REDIRECT }, null);
    assert.equal(res.status, 200, res.text);
    return (res.body?.data as { auth_url: string }).auth_url;
  };
  const callback = (id: number, query: URLSearchParams) =>
    call(id, 'GET', `auth/oidc/oidc/callback?${query.toString()}`, undefined, null);

  before(async () => {
    op = await startOpenIdProvider({ redirectUris: [REDIRECT] });
    op.accounts.set('alice', { email: 'alice@example.test', groups: ['engineering'] });
    dir = await mkdtemp(join(tmpdir(), 'ward-oidc-workers-'));
    w = await startWorkersWard(dir, 3);
    await ok(1, 'POST', 'sys/auth/oidc', { type: 'oidc' });
    await ok(2, 'POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
      default_role: 'web',
    });
    await ok(3, 'POST', 'auth/oidc/role/web', {
      user_claim: 'email',
      oidc_scopes: 'email',
      allowed_redirect_uris: REDIRECT,
      token_policies: 'web',
    });
  });
  after(async () => {
    w?.ward.child.kill('SIGTERM');
    await w?.ward.exited;
    await op?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finishes through every other worker a login started through each worker, once', async () => {
    op.nextUser = 'alice';
    for (const starter of WORKERS) {
      for (const finisher of WORKERS.filter((id) => id !== starter)) {
        const { query } = await browse(await authUrl(starter), REDIRECT);
        assert.ok(query?.get('code'), 'the provider answered with a code');
        assert.ok(query);
        const res = await callback(finisher, query);
        assert.equal(res.status, 200, `started on ${starter}, finished on ${finisher}: ${res.text}`);
        const auth = res.body?.auth as { metadata: Record<string, string>; token_policies: string[] };
        assert.equal(auth.metadata.role, 'web');
        assert.deepEqual(auth.token_policies, ['default', 'web']);
        // Used once, whichever worker sees it again.
        const replay = await callback(starter, query);
        assert.equal(replay.status, 400, replay.text);
        assert.deepEqual(replay.body?.errors, ['Expired or missing OAuth state.']);
      }
    }
  });
});
