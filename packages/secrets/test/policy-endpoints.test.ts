import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolicyStore } from '../src/core/policy/policy-store.js';
import type { TokenPolicyResolver } from '../src/core/system-core.js';
import { createBackend } from '../src/framework/index.js';
import { InvalidRequestError, type LogicalError, NotFoundError } from '../src/logical/errors.js';
import type { BackendRequest, Caller, Operation } from '../src/logical/request.js';
import { InmemStorage } from '../src/storage/index.js';
import { pathCapabilities } from '../src/sys/path-capabilities.js';
import { pathPolicies } from '../src/sys/path-policies.js';

const READ_SECRET = 'path "secret/*" {\n  capabilities = ["read", "list"]\n}\n';

/** Two known tokens: `t-dev` (accessor `a-dev`) with `dev`, `t-root` (accessor `a-root`) with `root`. */
const fakeTokens: TokenPolicyResolver = {
  policiesOfToken: async (token) => ({ 't-dev': ['dev'], 't-root': ['root'] })[token],
  policiesOfAccessor: async (accessor) => ({ 'a-dev': ['dev'], 'a-root': ['root'] })[accessor],
};

/** The policy and capabilities paths in a system backend of their own, driven like the router drives it. */
async function testSys() {
  const storage = new InmemStorage();
  const store = await PolicyStore.open({ storage });
  const backend = createBackend({
    type: 'system',
    storage,
    help: 'test',
    paths: [...pathPolicies(store), ...pathCapabilities(store, fakeTokens)],
  });
  const request = (operation: Operation, path: string, data: Record<string, unknown> = {}, caller?: Caller) =>
    ({ id: 'r', operation, path, data, mountPoint: 'sys/', remoteAddress: '127.0.0.1', caller }) as BackendRequest;
  const call = (operation: Operation, path: string, data?: Record<string, unknown>, caller?: Caller) =>
    backend.handle(request(operation, path, data, caller));
  return { store, backend, call, request };
}

function caller(policies: string[], entityId = ''): Caller {
  return { accessor: 'acc', policies, entityId, displayName: 'token' };
}

const rejectsWith = (ErrorClass: new (...args: never[]) => LogicalError, message: string) => (err: unknown) =>
  err instanceof ErrorClass && err.message === message;

describe('sys/policy (legacy)', () => {
  it('writes, reads (copied to the top level) and lists a policy', async () => {
    const { call } = await testSys();
    assert.equal(await call('update', 'policy/dev', { policy: READ_SECRET }), undefined);
    assert.deepEqual(await call('read', 'policy/dev'), {
      data: { name: 'dev', rules: READ_SECRET },
      dataAtTopLevel: true,
    });
    assert.deepEqual(await call('read', 'policy'), {
      data: { keys: ['default', 'dev', 'root'], policies: ['default', 'dev', 'root'] },
      dataAtTopLevel: true,
    });
    assert.deepEqual((await call('list', 'policy/'))?.data, { keys: ['default', 'dev', 'root'] });
  });

  it('accepts the deprecated rules field', async () => {
    const { call } = await testSys();
    await call('update', 'policy/old', { rules: READ_SECRET });
    assert.equal((await call('read', 'policy/old'))?.data?.rules, READ_SECRET);
  });

  it('lower-cases the name with a warning', async () => {
    const { call } = await testSys();
    assert.deepEqual(await call('update', 'policy/DevOps', { policy: READ_SECRET }), {
      warnings: ['policy name was converted to devops'],
    });
    assert.equal((await call('read', 'policy/devops'))?.data?.name, 'devops');
  });

  it('deletes, and a missing policy reads as a 404 with no message', async () => {
    const { call } = await testSys();
    await call('update', 'policy/dev', { policy: READ_SECRET });
    assert.equal(await call('delete', 'policy/dev'), undefined);
    await assert.rejects(call('read', 'policy/dev'), rejectsWith(NotFoundError, ''));
  });

  it('tells create from update through the existence check', async () => {
    const { backend, call, request } = await testSys();
    assert.equal(await backend.exists(request('update', 'policy/dev')), false);
    await call('update', 'policy/dev', { policy: READ_SECRET });
    assert.equal(await backend.exists(request('update', 'policy/dev')), true);
    assert.equal(await backend.exists(request('update', 'policies/acl/dev')), true);
  });
});

describe('sys/policies/acl', () => {
  it('lists, reads {name, policy} without top-level copy, and deletes', async () => {
    const { call } = await testSys();
    await call('update', 'policies/acl/dev', { policy: READ_SECRET });
    assert.deepEqual(await call('list', 'policies/acl/'), { data: { keys: ['default', 'dev', 'root'] } });
    assert.deepEqual(await call('read', 'policies/acl/dev'), { data: { name: 'dev', policy: READ_SECRET } });
    await call('delete', 'policies/acl/dev');
    await assert.rejects(call('read', 'policies/acl/dev'), NotFoundError);
  });

  it('decodes base64-encoded policy text', async () => {
    const { call } = await testSys();
    await call('update', 'policies/acl/b64', { policy: Buffer.from(READ_SECRET).toString('base64') });
    assert.equal((await call('read', 'policies/acl/b64'))?.data?.policy, READ_SECRET);
  });

  it('accepts JSON policy text', async () => {
    const { call, store } = await testSys();
    const text = JSON.stringify({ path: { 'kv/*': { capabilities: ['list'] } } });
    await call('update', 'policies/acl/json', { policy: text });
    assert.equal((await store.acl(['json'])).allowed('list', 'kv/').allowed, true);
  });

  it('refuses empty and unparsable text with the established messages', async () => {
    const { call } = await testSys();
    const empty = "'policy' parameter not supplied or empty";
    await assert.rejects(call('update', 'policies/acl/x', {}), rejectsWith(InvalidRequestError, empty));
    await assert.rejects(call('update', 'policies/acl/x', { policy: '' }), rejectsWith(InvalidRequestError, empty));
    await assert.rejects(
      call('update', 'policies/acl/x', { policy: 'path "a" { capabilities = ["fly"] }' }),
      rejectsWith(InvalidRequestError, 'failed to parse policy: path "a": invalid capability "fly"'),
    );
    await assert.rejects(call('read', 'policies/acl/x'), NotFoundError);
  });

  it('protects the built-ins', async () => {
    const { call } = await testSys();
    await assert.rejects(
      call('update', 'policies/acl/root', { policy: READ_SECRET }),
      rejectsWith(InvalidRequestError, 'cannot update "root" policy'),
    );
    await assert.rejects(
      call('delete', 'policy/root'),
      rejectsWith(InvalidRequestError, 'cannot delete "root" policy'),
    );
    await assert.rejects(
      call('delete', 'policies/acl/default'),
      rejectsWith(InvalidRequestError, 'cannot delete default policy'),
    );
    // default stays editable.
    await call('update', 'policies/acl/default', { policy: READ_SECRET });
    assert.equal((await call('read', 'policies/acl/default'))?.data?.policy, READ_SECRET);
  });

  it('applies a new policy to the next ACL built for it', async () => {
    const { call, store } = await testSys();
    await call('update', 'policies/acl/dev', { policy: READ_SECRET });
    assert.equal((await store.acl(['dev'])).allowed('read', 'secret/x').allowed, true);
    await call('update', 'policies/acl/dev', { policy: 'path "secret/*" { capabilities = ["deny"] }' });
    assert.equal((await store.acl(['dev'])).allowed('read', 'secret/x').allowed, false);
  });
});

describe('sys/capabilities*', () => {
  const devPolicy = `path "secret/*" { capabilities = ["read", "list"] }
    path "secret/admin" { capabilities = ["deny"] }
    path "kv/+/config" { capabilities = ["update", "sudo", "create"] }`;

  async function withDev() {
    const sys = await testSys();
    await sys.call('update', 'policies/acl/dev', { policy: devPolicy });
    return sys;
  }

  it('reports the caller’s capabilities per path, sorted, copied to the top level', async () => {
    const { call } = await withDev();
    const response = await call(
      'update',
      'capabilities-self',
      { paths: ['secret/x', 'kv/app/config', 'secret/admin', 'other/x'] },
      caller(['dev']),
    );
    assert.deepEqual(response, {
      data: {
        'secret/x': ['list', 'read'],
        'kv/app/config': ['create', 'sudo', 'update'],
        'secret/admin': ['deny'],
        'other/x': ['deny'],
      },
      dataAtTopLevel: true,
    });
  });

  it('adds `capabilities` when asked about exactly one path, also through the legacy `path`', async () => {
    const { call } = await withDev();
    const expected = { 'secret/x': ['list', 'read'], capabilities: ['list', 'read'] };
    assert.deepEqual(
      (await call('update', 'capabilities-self', { paths: 'secret/x' }, caller(['dev'])))?.data,
      expected,
    );
    assert.deepEqual(
      (await call('update', 'capabilities-self', { path: 'secret/x' }, caller(['dev'])))?.data,
      expected,
    );
  });

  it('reports root for root tokens and deny for a token without policies', async () => {
    const { call } = await withDev();
    assert.deepEqual((await call('update', 'capabilities-self', { paths: ['a'] }, caller(['root'])))?.data, {
      a: ['root'],
      capabilities: ['root'],
    });
    assert.deepEqual((await call('update', 'capabilities-self', { paths: ['a'] }, caller([])))?.data?.a, ['deny']);
  });

  it('uses the caller’s entity for templated rules (the default policy)', async () => {
    const { call } = await withDev();
    const paths = { paths: ['identity/entity/id/e1'] };
    assert.deepEqual(
      (await call('update', 'capabilities-self', paths, caller(['default'], 'e1')))?.data?.capabilities,
      ['read'],
    );
    assert.deepEqual((await call('update', 'capabilities-self', paths, caller(['default'])))?.data?.capabilities, [
      'deny',
    ]);
  });

  it('refuses a request without paths', async () => {
    const { call } = await withDev();
    await assert.rejects(
      call('update', 'capabilities-self', {}, caller(['dev'])),
      rejectsWith(InvalidRequestError, 'paths must be supplied'),
    );
  });

  it('looks up another token by value or accessor', async () => {
    const { call } = await withDev();
    const byToken = await call('update', 'capabilities', { token: 't-dev', paths: ['secret/x'] }, caller(['root']));
    assert.deepEqual(byToken?.data?.capabilities, ['list', 'read']);
    const byAccessor = await call('update', 'capabilities-accessor', { accessor: 'a-root', paths: ['x'] });
    assert.deepEqual(byAccessor?.data?.capabilities, ['root']);
    await assert.rejects(
      call('update', 'capabilities', { token: 'nope', paths: ['x'] }),
      rejectsWith(InvalidRequestError, 'invalid token'),
    );
    await assert.rejects(
      call('update', 'capabilities-accessor', { accessor: 'nope', paths: ['x'] }),
      rejectsWith(InvalidRequestError, 'invalid accessor'),
    );
    await assert.rejects(
      call('update', 'capabilities-accessor', { paths: ['x'] }),
      rejectsWith(InvalidRequestError, 'missing accessor'),
    );
  });
});
