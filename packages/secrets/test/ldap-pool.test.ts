import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cryptoRandom, FakeClock } from '@ward/base';
import { createLdapBackend } from '../src/engines/ldap/backend.js';
import { configStore, type LdapConfig } from '../src/engines/ldap/config-store.js';
import { ConnectionPool } from '../src/engines/ldap/connection-pool.js';
import { type TestBackend, testBackend } from '../src/framework/testing.js';
import { UpstreamError } from '../src/logical/errors.js';
import type { LogicalResponse } from '../src/logical/response.js';
import { startTestServer } from '../src/server/testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { settles, startTcpCutter, type TcpCutter } from './tcp-cutter.js';

const ROLE = {
  creation_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: x\nuserPassword: {{.Password}}\n`,
  deletion_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: delete\n`,
  username_template: 'p_{{random 10 | lowercase}}',
};

const dnOf = (issued: LogicalResponse | undefined) => `cn=${issued?.secret?.data.username},ou=users,${SUFFIX}`;

async function engine(url: string, clock = new FakeClock()): Promise<TestBackend> {
  // Real randomness: every test's usernames differ (a seeded engine would repeat the last test's).
  const b = await testBackend(createLdapBackend, { clock, random: cryptoRandom });
  await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url });
  await b.write('role/pool', ROLE);
  return b;
}

function revoke(b: TestBackend, issued: LogicalResponse | undefined) {
  return b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal: issued?.secret?.internal ?? {} });
}

describe('ldap connection pool: what a user sees', () => {
  let slapd: Slapd;
  let cutter: TcpCutter;
  before(async () => {
    slapd = await startSlapd();
    const { hostname, port } = new URL(slapd.url);
    cutter = await startTcpCutter({ host: hostname, port: Number(port) });
  });
  after(async () => {
    await cutter.close();
    await slapd.stop();
  });

  it('issues and revokes many credentials over one bound connection', async () => {
    const b = await engine(cutter.url);
    const before = cutter.acceptedConnections;
    for (let i = 0; i < 5; i++) await revoke(b, await b.read('creds/pool'));
    assert.equal(cutter.acceptedConnections - before, 1);
    await b.backend.cleanup?.();
  });

  it('a pooled connection the network dropped silently: the request runs again on a fresh one', async () => {
    const b = await engine(cutter.url);
    await revoke(b, await b.read('creds/pool'));
    cutter.cutSilently();
    const issued = await b.read('creds/pool');
    assert.ok(await slapd.exists(dnOf(issued)));
    cutter.cutSilently();
    await revoke(b, issued);
    assert.equal(await slapd.exists(dnOf(issued)), false);
    await b.backend.cleanup?.();
  });

  it('a config changed underneath (as another node of a cluster writes it) is followed: no old connection reused', async () => {
    const b = await engine(cutter.url);
    await revoke(b, await b.read('creds/pool'));
    const before = cutter.acceptedConnections;
    await revoke(b, await b.read('creds/pool'));
    assert.equal(cutter.acceptedConnections, before, 'reused while nothing changed');
    const config = (await configStore.get(b.storage)) as LdapConfig;
    await configStore.put(b.storage, { ...config, request_timeout: config.request_timeout + 1 });
    await revoke(b, await b.read('creds/pool'));
    assert.equal(cutter.acceptedConnections, before + 1);
    assert.equal(await settles(() => cutter.openConnections, 1), 1, 'the old one closed');
    await b.backend.cleanup?.();
  });

  it('a config write, and unmount or seal (cleanup), close the pooled connections', async () => {
    const b = await engine(cutter.url);
    await revoke(b, await b.read('creds/pool'));
    assert.equal(await settles(() => cutter.openConnections, 1), 1);
    await b.write('config', { request_timeout: 30 });
    assert.equal(await settles(() => cutter.openConnections, 0), 0);
    await revoke(b, await b.read('creds/pool'));
    assert.equal(await settles(() => cutter.openConnections, 1), 1);
    await b.backend.cleanup?.();
    assert.equal(await settles(() => cutter.openConnections, 0), 0);
  });

  it('a directory that does not answer within request_timeout: 502 naming the timeout, not sent again', async () => {
    const b = await engine(cutter.url);
    await b.write('config', { request_timeout: 1 });
    await revoke(b, await b.read('creds/pool'));
    const before = cutter.acceptedConnections;
    await slapd.pause();
    try {
      await assert.rejects(
        b.read('creds/pool'),
        (err: Error) => err instanceof UpstreamError && /timed out/.test(err.message),
      );
    } finally {
      slapd.resume();
    }
    assert.equal(cutter.acceptedConnections, before, 'a timeout is not retried on another connection');
    const issued = await b.read('creds/pool');
    assert.ok(await slapd.exists(dnOf(issued)));
    await revoke(b, issued);
    await b.backend.cleanup?.();
  });

  it("through a server: unmounting and sealing close the mount's pooled connections", async () => {
    const ward = await startTestServer();
    try {
      const issueAndRevoke = async (mount: string) => {
        const issued = await ward.request('GET', `${mount}/creds/pool`);
        assert.equal(issued.status, 200, JSON.stringify(issued.body));
        const revoked = await ward.request('PUT', 'sys/leases/revoke', { body: { lease_id: issued.body.lease_id } });
        assert.equal(revoked.status, 204);
      };
      for (const mount of ['one', 'two']) {
        await ward.request('POST', `sys/mounts/${mount}`, { body: { type: 'ldap' } });
        await ward.request('POST', `${mount}/config`, {
          body: { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: cutter.url },
        });
        await ward.request('POST', `${mount}/role/pool`, { body: ROLE });
        await issueAndRevoke(mount);
      }
      assert.equal(await settles(() => cutter.openConnections, 2), 2, 'one pooled connection per mount');
      assert.equal((await ward.request('DELETE', 'sys/mounts/one')).status, 204);
      assert.equal(await settles(() => cutter.openConnections, 1), 1);
      assert.equal((await ward.request('PUT', 'sys/seal')).status, 204);
      assert.equal(await settles(() => cutter.openConnections, 0), 0);
    } finally {
      await ward.stop();
    }
  });

  it('a slapd restart between requests: the next request and the revocation of an earlier lease succeed', async () => {
    const b = await engine(slapd.url);
    const earlier = await b.read('creds/pool');
    await slapd.restart();
    const later = await b.read('creds/pool');
    assert.ok(await slapd.exists(dnOf(later)));
    await revoke(b, earlier);
    await revoke(b, later);
    assert.equal(await slapd.exists(dnOf(earlier)), false);
    assert.equal(await slapd.exists(dnOf(later)), false);
    await b.backend.cleanup?.();
  });
});

describe('ldap connection pool limits', () => {
  let slapd: Slapd;
  let cutter: TcpCutter;
  let config: LdapConfig;
  before(async () => {
    slapd = await startSlapd();
    const { hostname, port } = new URL(slapd.url);
    cutter = await startTcpCutter({ host: hostname, port: Number(port) });
    const b = await engine(cutter.url);
    config = (await configStore.get(b.storage)) as LdapConfig;
  });
  after(async () => {
    await cutter.close();
    await slapd.stop();
  });

  const entry = (cn: string) => ({
    kind: 'add' as const,
    dn: `cn=${cn},ou=users,${SUFFIX}`,
    attributes: new Map([
      ['objectClass', [Buffer.from('inetOrgPerson')]],
      ['cn', [Buffer.from(cn)]],
      ['sn', [Buffer.from('x')]],
    ]),
  });
  const remove = (cn: string) => ({ kind: 'delete' as const, dn: `cn=${cn},ou=users,${SUFFIX}` });
  const reload = async () => config;

  it('closes a connection after maxOperations and one idle for idleTimeoutMs', async () => {
    const clock = new FakeClock();
    const pool = new ConnectionPool(clock, { maxIdle: 4, maxOperations: 2, idleTimeoutMs: 60_000 });
    const start = cutter.acceptedConnections;
    await pool.use(config, reload, (d) => d.apply(entry('cap1')));
    await pool.use(config, reload, (d) => d.apply(remove('cap1')));
    // Two operations: closed, and the next use connects again.
    assert.equal(await settles(() => cutter.openConnections, 0), 0);
    await pool.use(config, reload, (d) => d.apply(entry('cap2')));
    assert.equal(cutter.acceptedConnections - start, 2);
    clock.advance(59_000);
    assert.equal(await settles(() => cutter.openConnections, 1), 1);
    clock.advance(1_000);
    assert.equal(await settles(() => cutter.openConnections, 0), 0);
    await pool.use(config, reload, (d) => d.apply(remove('cap2')));
    await pool.close();
  });

  it('keeps at most maxIdle connections once concurrent requests are done', async () => {
    const pool = new ConnectionPool(new FakeClock(), { maxIdle: 2, maxOperations: 100, idleTimeoutMs: 60_000 });
    const names = ['m1', 'm2', 'm3', 'm4'];
    await Promise.all(names.map((n) => pool.use(config, reload, (d) => d.apply(entry(n)))));
    assert.equal(await settles(() => cutter.openConnections, 2), 2);
    await Promise.all(names.map((n) => pool.use(config, reload, (d) => d.apply(remove(n)))));
    await pool.close();
    assert.equal(await settles(() => cutter.openConnections, 0), 0);
  });
});

describe('rotate-root while credentials are issued (a directory of its own: the engine account changes)', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd();
  });
  after(() => slapd.stop());

  it('every request succeeds, the old password no longer binds, and later requests bind with the new one', async () => {
    const b = await engine(slapd.url);
    // Pooled connections bound with the old password exist before the rotation.
    await Promise.all([1, 2, 3].map(async () => revoke(b, await b.read('creds/pool'))));
    const issue = () => Array.from({ length: 6 }, () => b.read('creds/pool'));
    const results = await Promise.all([...issue(), b.write('rotate-root'), ...issue()]);
    assert.equal(await slapd.canBind(ENGINE_DN, ENGINE_PASSWORD), false);
    const issued = results.filter((r) => r?.secret);
    assert.equal(issued.length, 12);
    const later = await Promise.all([1, 2, 3].map(() => b.read('creds/pool')));
    for (const r of [...issued, ...later]) {
      assert.ok(await slapd.canBind(dnOf(r), String(r?.secret?.data.password)));
      await revoke(b, r);
      assert.equal(await slapd.exists(dnOf(r)), false);
    }
    await b.backend.cleanup?.();
  });
});
