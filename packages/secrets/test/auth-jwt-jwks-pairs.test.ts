import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type JwksServer, startJwksServer } from './fakes/jwks-server.js';
import { makeTlsIdentity } from './fakes/tls-identity.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 31 (JWT): `jwks_pairs`, several JWKS endpoints each with its own CA, through bin/ward:
// a token signed by either endpoint's key logs in (the key found by the token's kid), and the
// established exclusions (one key source only, no jwks_ca_pem beside it, no bound_issuer).

const ROOT = 'root-jwks-pairs';

describe('jwt auth with jwks_pairs, through bin/ward', () => {
  let plain: JwksServer;
  let secure: JwksServer;
  let securePem = '';
  let dev: DevWard;
  const login = (jwt: string) => dev.call('POST', 'auth/jwt/login', { role: 'ci', jwt }, null);
  const claims = (sub: string) => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: 'https://ci.example.test', sub, aud: 'ward', iat: now - 5, exp: now + 300 };
  };
  const pairs = () => [{ jwks_url: plain.url }, { jwks_url: secure.url, jwks_ca_pem: securePem }];

  before(async () => {
    const tls = await makeTlsIdentity([]);
    securePem = tls.cert;
    plain = await startJwksServer({ kidPrefix: 'plain-' });
    secure = await startJwksServer({ kidPrefix: 'secure-', tls });
    dev = await startDevWard(ROOT);
    await dev.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await plain?.close();
    await secure?.close();
  });

  it('verifies tokens signed by the key of either endpoint, each reached with its own CA', async () => {
    await dev.ok('POST', 'auth/jwt/config', { jwks_pairs: pairs() });
    const config = (await dev.ok('GET', 'auth/jwt/config')).data;
    assert.deepEqual(config.jwks_pairs, [
      { jwks_url: plain.url, jwks_ca_pem: '' },
      { jwks_url: secure.url, jwks_ca_pem: securePem },
    ]);
    assert.equal(config.jwks_url, '');
    await dev.ok('POST', 'auth/jwt/role/ci', { role_type: 'jwt', bound_audiences: 'ward', user_claim: 'sub' });
    const fromPlain = await login(await plain.sign(claims('from-plain')));
    assert.equal(fromPlain.status, 200, JSON.stringify(fromPlain.body));
    assert.equal(fromPlain.body.auth.metadata.role, 'ci');
    const fromSecure = await login(await secure.sign(claims('from-secure')));
    assert.equal(fromSecure.status, 200, JSON.stringify(fromSecure.body));
    assert.notEqual(fromSecure.body.auth.entity_id, fromPlain.body.auth.entity_id);
    assert.equal((await login(await secure.signWithUnpublishedKey(claims('forged')))).status, 400);
  });

  it('refuses jwks_pairs beside another key source, jwks_ca_pem or bound_issuer, and an endpoint that fails', async () => {
    for (const body of [
      { jwks_pairs: pairs(), jwks_url: plain.url },
      { jwks_pairs: pairs(), jwks_ca_pem: securePem },
      { jwks_pairs: pairs(), bound_issuer: 'https://ci.example.test' },
      { jwks_pairs: [{ jwks_url: plain.url }, { jwks_url: secure.url }] },
      { jwks_pairs: [{ jwks_ca_pem: securePem }] },
      { jwks_pairs: ['not a map'] },
    ]) {
      const res = await dev.call('POST', 'auth/jwt/config', body);
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await dev.ok('GET', 'auth/jwt/config')).data.jwks_pairs.length, 2, 'a refused write changes nothing');
  });
});

// The refetch limit is the server's clock: a test server on a fake one, moved past the 10 s.
describe('jwt auth with jwks_pairs: a rotation at one endpoint', () => {
  let plain: JwksServer;
  let secure: JwksServer;
  let t: TestServer;

  before(async () => {
    const tls = await makeTlsIdentity([]);
    plain = await startJwksServer({ kidPrefix: 'plain-' });
    secure = await startJwksServer({ kidPrefix: 'secure-', tls });
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    const jwks_pairs = [{ jwks_url: plain.url }, { jwks_url: secure.url, jwks_ca_pem: tls.cert }];
    await t.ok('POST', 'auth/jwt/config', { jwks_pairs });
    await t.ok('POST', 'auth/jwt/role/ci', { role_type: 'jwt', bound_audiences: 'ward', user_claim: 'sub' });
  });
  after(async () => {
    await t?.stop();
    await plain?.close();
    await secure?.close();
  });

  it('refetches the sets for an unknown kid (at most every 10 s)', async () => {
    await secure.rotate();
    const fetches = secure.fetches;
    (t.clock as FakeClock).advance(10_500);
    const now = Math.floor(t.clock.now() / 1000);
    const jwt = await secure.sign({
      iss: 'https://ci.example.test',
      sub: 'after-rotation',
      aud: 'ward',
      iat: now - 5,
      exp: now + 300,
    });
    const res = await t.request('POST', 'auth/jwt/login', { body: { role: 'ci', jwt }, token: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(secure.fetches, fetches + 1);
  });
});
