import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Issued, makeTestPki, type TestPki } from '@ward/base/testing';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { CALLBACK_BODY_LIMIT_BYTES } from '../src/cli/commands/login-oidc.js';
import { runWardInProcess, tempHome } from '../src/cli/testing.js';
import { freePort, startTestServer, type TestServer } from '../src/server/testing.js';
import { browse, type OpenIdProvider, startOpenIdProvider } from './openid-provider.js';
import { startOidcCliLogin } from './ward-process.js';

// Issue 31 point 5: `ward login -method=oidc|jwt|cert` with the established arguments.

describe('ward login -method=oidc (browser flow through the local listener)', () => {
  let t: TestServer;
  let op: OpenIdProvider;
  let port = 0;
  before(async () => {
    port = await freePort();
    op = await startOpenIdProvider({ redirectUris: [`http://localhost:${port}/oidc/callback`] });
    op.accounts.set('alice', { email: 'alice@example.test' });
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/oidc', { type: 'oidc' });
    await t.ok('POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
    });
    await t.ok('POST', 'auth/oidc/role/web', {
      user_claim: 'email',
      oidc_scopes: 'email',
      allowed_redirect_uris: `http://localhost:${port}/oidc/callback`,
      token_policies: 'web',
    });
  });
  after(async () => {
    await t.stop();
    await op.close();
  });

  it('prints the provider URL, waits for the callback, and saves the token', async () => {
    const { authUrl, exited, stderr, savedToken } = await startOidcCliLogin(t.url, port, ['role=web']);
    const redirect = `http://localhost:${port}/oidc/callback`;
    // A form_post over the limit is refused with 413 and does not end the login.
    const tooLarge = await fetch(redirect, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `code=${'x'.repeat(CALLBACK_BODY_LIMIT_BYTES)}`,
    });
    assert.equal(tooLarge.status, 413);
    await tooLarge.body?.cancel();
    const { query } = await browse(authUrl, redirect);
    assert.ok(query?.get('code'));
    assert.ok(query);
    // The browser follows the provider's redirect to the CLI's listener.
    const page = await fetch(`${redirect}?${query.toString()}`);
    assert.equal(page.status, 200);
    assert.equal(await exited, 0, stderr());
    const self = await t.request('GET', 'auth/token/lookup-self', { token: await savedToken() });
    assert.equal(self.status, 200);
    assert.deepEqual(self.body.data.policies, ['default', 'web']);
  });
});

describe('ward login -method=jwt and -method=cert', () => {
  let t: TestServer;
  let pki: TestPki;
  let client: Issued;
  before(async () => {
    pki = await makeTestPki();
    // Made before the server starts: its test clock stands still at the start.
    client = await pki.client('cli-client', { subject: '/CN=cli-client' });
    t = await startTestServer({
      listener: { tlsDisable: false, tlsCertFile: pki.server.certFile, tlsKeyFile: pki.server.keyFile },
    });
  });
  after(async () => {
    await t.stop();
    await pki.remove();
  });

  it('logs in with a JWT (role=… jwt=…) and with the TLS client certificate (-client-cert, -client-key)', async () => {
    const env = { VAULT_ADDR: t.url, VAULT_CACERT: pki.caFile, VAULT_TOKEN: t.rootToken, HOME: await tempHome() };
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const write = async (args: string[]) => {
      const run = await runWardInProcess(['write', ...args], env);
      assert.equal(run.code, 0, run.stderr);
    };
    await runWardInProcess(['auth', 'enable', 'jwt'], env);
    await write(['auth/jwt/config', `jwt_validation_pubkeys=${await exportSPKI(publicKey)}`]);
    const help = await runWardInProcess(['auth', 'help', 'jwt'], env);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /JWT\/OIDC auth method/);
    assert.equal((await runWardInProcess(['auth', 'help', 'nothing-here'], env)).code, 2);
    await write(['auth/jwt/role/ci', 'role_type=jwt', 'user_claim=sub', 'bound_subject=ci-1', 'token_policies=ci']);
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ sub: 'ci-1', iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    const { VAULT_TOKEN: _root, ...noToken } = env;
    const jwtLogin = await runWardInProcess(['login', '-method=jwt', '-format=json', 'role=ci', `jwt=${jwt}`], noToken);
    assert.equal(jwtLogin.code, 0, jwtLogin.stderr);
    assert.deepEqual(JSON.parse(jwtLogin.stdout).auth.token_policies, ['ci', 'default']);

    await runWardInProcess(['auth', 'enable', 'cert'], env);
    await write(['auth/cert/certs/clients', `certificate=${pki.caPem}`, 'token_policies=svc']);
    const certLogin = await runWardInProcess(
      [
        'login',
        '-method=cert',
        '-format=json',
        `-client-cert=${client.certFile}`,
        `-client-key=${client.keyFile}`,
        'name=clients',
      ],
      noToken,
    );
    assert.equal(certLogin.code, 0, certLogin.stderr);
    assert.equal(JSON.parse(certLogin.stdout).auth.metadata.common_name, 'cli-client');
    const without = await runWardInProcess(['login', '-method=cert'], noToken);
    assert.notEqual(without.code, 0, 'no client certificate: refused');
  });
});
