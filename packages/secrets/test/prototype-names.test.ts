import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';

// Issue 12 point 1: a table keyed by input that is a plain object also answers the names of
// Object.prototype. Every such name goes through every position a client chooses a key in.
const NAMES = Object.getOwnPropertyNames(Object.prototype);

interface Position {
  what: string;
  method: string;
  path: (name: string) => string;
  body?: (name: string) => unknown;
  headers?: (name: string) => Record<string, string>;
  token?: null;
  /** Statuses a correct server may answer; anything else (a 500, a hang) fails. Default: below 500. */
  expect?: number[];
}

const q = encodeURIComponent;
const POSITIONS: Position[] = [
  { what: 'route, no token', method: 'GET', path: (n) => n, token: null, expect: [403, 404] },
  { what: 'route', method: 'GET', path: (n) => n, expect: [404] },
  { what: 'route under sys/', method: 'GET', path: (n) => `sys/${n}`, expect: [404, 405] },
  { what: 'route under auth/', method: 'GET', path: (n) => `auth/${n}`, expect: [404] },
  { what: 'route under a mount', method: 'GET', path: (n) => `secret/${n}`, expect: [404, 405] },
  { what: 'help of a route', method: 'GET', path: (n) => `${n}?help=1`, expect: [404] },
  { what: 'query parameter', method: 'GET', path: (n) => `sys/mounts?${q(n)}=1` },
  {
    what: 'secrets engine type',
    method: 'POST',
    path: () => 'sys/mounts/p',
    body: (n) => ({ type: n }),
    expect: [400],
  },
  { what: 'auth method type', method: 'POST', path: () => 'sys/auth/p', body: (n) => ({ type: n }), expect: [400] },
  { what: 'audit device type', method: 'POST', path: () => 'sys/audit/p', body: (n) => ({ type: n }), expect: [400] },
  {
    what: 'audit format',
    method: 'POST',
    path: () => 'sys/audit/p',
    body: (n) => fileAudit({ format: n }),
    expect: [400],
  },
  { what: 'audit device path', method: 'POST', path: (n) => `sys/audit-hash/${n}`, body: () => ({ input: 'x' }) },
  {
    what: 'mount option',
    method: 'POST',
    path: () => 'sys/mounts/p',
    body: (n) => ({ type: 'kv', options: { [n]: '1' } }),
  },
  { what: 'tune of a mount', method: 'GET', path: (n) => `sys/mounts/${n}/tune`, expect: [400, 404] },
  { what: 'mount path', method: 'POST', path: (n) => `sys/mounts/${n}`, body: () => ({ type: 'kv' }) },
  {
    what: 'listing visibility',
    method: 'POST',
    path: () => 'sys/mounts/secret/tune',
    body: (n) => ({ listing_visibility: n }),
    expect: [400],
  },
  {
    what: 'kv version option',
    method: 'POST',
    path: () => 'sys/mounts/p2',
    body: (n) => ({ type: 'kv', options: { version: n } }),
    expect: [400],
  },
  {
    what: 'policy name',
    method: 'PUT',
    path: (n) => `sys/policies/acl/${n}`,
    body: () => ({ policy: 'path "a" { capabilities = ["read"] }' }),
  },
  {
    what: 'legacy policy value',
    method: 'PUT',
    path: () => 'sys/policies/acl/legacy',
    body: (n) => ({ policy: `path "a" { policy = "${n}" }` }),
    expect: [400],
  },
  {
    what: 'capability name',
    method: 'PUT',
    path: () => 'sys/policies/acl/caps',
    body: (n) => ({ policy: `path "a" { capabilities = ["${n}"] }` }),
    expect: [400],
  },
  {
    what: 'policy parameter name',
    method: 'PUT',
    path: () => 'sys/policies/acl/params',
    body: (n) => ({ policy: `path "a" {\n capabilities = ["update"]\n allowed_parameters = { "${n}" = [] }\n}` }),
  },
  {
    what: 'policy stanza key',
    method: 'PUT',
    path: () => 'sys/policies/acl/stanza',
    body: (n) => ({ policy: `path "a" {\n capabilities = ["read"]\n ${n} = 1\n}` }),
    expect: [200, 204, 400],
  },
  {
    what: 'capabilities path',
    method: 'POST',
    path: () => 'sys/capabilities-self',
    body: (n) => ({ paths: [n, `secret/${n}`] }),
  },
  { what: 'field name', method: 'POST', path: () => 'secret/config', body: (n) => ({ [n]: 1 }) },
  { what: 'KV path', method: 'POST', path: (n) => `secret/data/${n}`, body: () => ({ data: { a: 1 } }) },
  { what: 'KV data key', method: 'POST', path: () => 'secret/data/keys', body: (n) => ({ data: { [n]: 1 } }) },
  {
    what: 'KV patch key',
    method: 'PATCH',
    path: () => 'secret/data/keys',
    body: (n) => ({ data: { [n]: 2 } }),
    headers: () => ({ 'Content-Type': 'application/merge-patch+json' }),
  },
  {
    what: 'KV custom metadata key',
    method: 'POST',
    path: () => 'secret/metadata/keys',
    body: (n) => ({ custom_metadata: { [n]: 'v' } }),
  },
  { what: 'KV subkeys', method: 'GET', path: (n) => `secret/subkeys/${n}` },
  { what: 'KV v1 path and key', method: 'POST', path: (n) => `kv1/${n}`, body: (n) => ({ [n]: 'v' }) },
  {
    what: 'TOTP key name',
    method: 'POST',
    path: (n) => `totp/keys/${n}`,
    body: () => ({ generate: true, issuer: 'i', account_name: 'a' }),
  },
  {
    what: 'TOTP algorithm',
    method: 'POST',
    path: () => 'totp/keys/alg',
    body: (n) => ({ generate: true, issuer: 'i', account_name: 'a', algorithm: n }),
    expect: [400],
  },
  { what: 'TOTP code', method: 'GET', path: (n) => `totp/code/${n}` },
  { what: 'entity name', method: 'POST', path: (n) => `identity/entity/name/${n}`, body: () => ({ policies: ['a'] }) },
  {
    what: 'entity metadata key',
    method: 'POST',
    path: () => 'identity/entity',
    body: (n) => ({ name: 'meta', metadata: { [n]: 'v' } }),
  },
  { what: 'group name', method: 'POST', path: (n) => `identity/group/name/${n}`, body: () => ({ policies: ['a'] }) },
  {
    what: 'group type',
    method: 'POST',
    path: () => 'identity/group',
    body: (n) => ({ name: 'typed', type: n }),
    expect: [400],
  },
  { what: 'identity lookup', method: 'POST', path: () => 'identity/lookup/entity', body: (n) => ({ name: n }) },
  {
    what: 'entity alias mount',
    method: 'POST',
    path: () => 'identity/entity-alias',
    body: (n) => ({ name: 'al', mount_accessor: n }),
    expect: [400, 404],
  },
  { what: 'userpass user', method: 'POST', path: (n) => `auth/userpass/users/${n}`, body: () => ({ password: 'pw' }) },
  {
    what: 'userpass login',
    method: 'POST',
    path: (n) => `auth/userpass/login/${n}`,
    body: () => ({ password: 'wrong' }),
    token: null,
    expect: [400, 403],
  },
  {
    what: 'userpass token type',
    method: 'POST',
    path: () => 'auth/userpass/users/tt',
    body: (n) => ({ password: 'pw', token_type: n }),
    expect: [400],
  },
  {
    what: 'AppRole role',
    method: 'POST',
    path: (n) => `auth/approle/role/${n}`,
    body: () => ({ token_policies: ['a'] }),
  },
  { what: 'AppRole role id', method: 'GET', path: (n) => `auth/approle/role/${n}/role-id` },
  {
    what: 'AppRole login',
    method: 'POST',
    path: () => 'auth/approle/login',
    body: (n) => ({ role_id: n, secret_id: n }),
    token: null,
    expect: [400, 403],
  },
  {
    what: 'token create with role',
    method: 'POST',
    path: (n) => `auth/token/create/${n}`,
    body: () => ({}),
    expect: [400, 404],
  },
  {
    what: 'token role',
    method: 'POST',
    path: (n) => `auth/token/roles/${n}`,
    body: () => ({ allowed_policies: ['a'] }),
  },
  { what: 'token type', method: 'POST', path: () => 'auth/token/create', body: (n) => ({ type: n }), expect: [400] },
  {
    what: 'token metadata key',
    method: 'POST',
    path: () => 'auth/token/create',
    body: (n) => ({ meta: { [n]: 'v' } }),
    expect: [200],
  },
  {
    what: 'token lookup',
    method: 'POST',
    path: () => 'auth/token/lookup',
    body: (n) => ({ token: n }),
    expect: [400, 403],
  },
  {
    what: 'token as header',
    method: 'GET',
    path: () => 'auth/token/lookup-self',
    headers: (n) => ({ 'X-Vault-Token': n }),
    token: null,
    expect: [403],
  },
  {
    what: 'accessor lookup',
    method: 'POST',
    path: () => 'auth/token/lookup-accessor',
    body: (n) => ({ accessor: n }),
    expect: [400, 403],
  },
  {
    what: 'lease lookup',
    method: 'PUT',
    path: () => 'sys/leases/lookup',
    body: (n) => ({ lease_id: n }),
    expect: [400],
  },
  {
    what: 'namespace header',
    method: 'GET',
    path: () => 'sys/mounts',
    headers: (n) => ({ 'X-Vault-Namespace': n }),
    expect: [400, 403, 404],
  },
  { what: 'namespace prefix', method: 'GET', path: (n) => `${n}/sys/mounts`, expect: [400, 403, 404] },
  { what: 'namespace name', method: 'POST', path: (n) => `sys/namespaces/${n}` },
  { what: 'locked user', method: 'POST', path: (n) => `sys/locked-users/${n}/unlock/${n}`, expect: [204, 400] },
  { what: 'remount status', method: 'GET', path: (n) => `sys/remount/status/${n}`, expect: [400, 404] },
  { what: 'header name', method: 'GET', path: () => 'sys/health', headers: (n) => ({ [`X-${n}`]: '1' }), token: null },
];

function fileAudit(options: Record<string, string>) {
  return { type: 'file', options: { file_path: 'discard', ...options } };
}

async function send(t: TestServer, p: Position, name: string) {
  const headers: Record<string, string> = { ...p.headers?.(name) };
  if (p.token !== null) headers['X-Vault-Token'] = t.rootToken;
  const body = p.body?.(name);
  const res = await fetch(`${t.url}/v1/${p.path(name)}`, {
    method: p.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, text: await res.text() };
}

async function assertServes(t: TestServer) {
  assert.equal((await t.request('GET', 'sys/health')).status, 200);
  assert.equal((await t.request('GET', 'sys/mounts')).status, 200);
  assert.equal((await t.request('GET', 'sys/auth')).status, 200);
  assert.equal((await t.request('GET', 'secret/data/keys')).status, 200);
  assert.equal((await t.request('POST', 'secret/data/after', { body: { data: { still: 'served' } } })).status, 200);
  assert.equal((await t.request('LIST', 'totp/keys')).status, 200);
  assert.equal((await t.request('LIST', 'identity/entity/name')).status, 200);
  assert.equal((await t.request('GET', 'sys/audit')).status, 200);
  assert.equal((await t.request('LIST', 'sys/policies/acl')).status, 200);
}

describe('names of Object.prototype in every user-keyed position (issue 12)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-proto-'));
  const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ storage });
    for (const [table, mount, type] of [
      ['sys/mounts', 'totp', 'totp'],
      ['sys/auth', 'userpass', 'userpass'],
      ['sys/auth', 'approle', 'approle'],
    ]) {
      assert.equal((await t.request('POST', `${table}/${mount}`, { body: { type } })).status, 204);
    }
    await t.request('POST', 'sys/mounts/kv1', { body: { type: 'kv', options: { version: '1' } } });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const p of POSITIONS) {
    it(`${p.what}: a clear answer for every name, never a 500 or a hang`, async () => {
      for (const name of NAMES) {
        const res = await send(t, p, name);
        const ok = p.expect ? p.expect.includes(res.status) : res.status < 500;
        assert.ok(ok, `${p.method} ${p.path(name)} ${JSON.stringify(p.body?.(name) ?? '')}: ${res.status} ${res.text}`);
      }
    });
  }

  it('keeps a __proto__ key: the data read and subkeys both show it', async () => {
    const raw = '{"data":{"__proto__":{"inner":1},"plain":2}}';
    const write = await t.request('POST', 'secret/data/protokey', { body: raw });
    assert.equal(write.status, 200);
    const read = await fetch(`${t.url}/v1/secret/data/protokey`, { headers: { 'X-Vault-Token': t.rootToken } });
    const readText = await read.text();
    assert.match(readText, /"data":\{"__proto__":\{"inner":1\},"plain":2\}/);
    const sub = await fetch(`${t.url}/v1/secret/subkeys/protokey`, { headers: { 'X-Vault-Token': t.rootToken } });
    assert.match(await sub.text(), /"subkeys":\{"__proto__":\{"inner":null\},"plain":null\}/);
  });

  it('still serves every request afterwards, and again after a restart and unseal', async () => {
    await assertServes(t);
    const creds = { unsealKey: t.unsealKey, rootToken: t.rootToken };
    await t.stop();
    t = await startTestServer({ storage, reopen: creds });
    await assertServes(t);
    for (const name of NAMES) {
      assert.ok((await send(t, POSITIONS[1] as Position, name)).status < 500);
    }
  });
});
