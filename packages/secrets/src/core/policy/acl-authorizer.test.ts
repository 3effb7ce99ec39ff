import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PermissionDeniedError } from '../../logical/errors.js';
import { InmemStorage } from '../../storage/index.js';
import { createAclAuthorizer } from './acl-authorizer.js';
import type { AccessQuestion } from './authorizer.js';
import { PolicyStore } from './policy-store.js';

async function testAuthorizer() {
  const store = await PolicyStore.open({ storage: new InmemStorage() });
  await store.write(
    'app',
    `path "secret/*" { capabilities = ["read", "create", "update"] }
     path "sys/mounts/*" { capabilities = ["update", "sudo"] }
     path "sys/audit/*" { capabilities = ["update"] }
     path "kv/config" {
       capabilities = ["update"]
       allowed_parameters = { "ttl" = [] }
     }`,
  );
  const authorizer = createAclAuthorizer(store);
  return async (question: Partial<AccessQuestion>) =>
    authorizer.authorize({ policies: ['app'], operation: 'read', path: '', needsSudo: false, ...question });
}

/** The established ACL refusal: a 403 in multi-error form. */
function isAclDenial(err: unknown): boolean {
  return err instanceof PermissionDeniedError;
}

describe('createAclAuthorizer', () => {
  it("allows what the token's policies grant and refuses the rest with the ACL denial", async () => {
    const authorize = await testAuthorizer();
    await authorize({ path: 'secret/x' });
    await authorize({ operation: 'create', path: 'secret/y' });
    await assert.rejects(authorize({ operation: 'delete', path: 'secret/x' }), isAclDenial);
    await assert.rejects(authorize({ path: 'other/x' }), isAclDenial);
  });

  it('needs sudo on root-protected paths', async () => {
    const authorize = await testAuthorizer();
    await authorize({ operation: 'update', path: 'sys/mounts/kv', needsSudo: true });
    await assert.rejects(authorize({ operation: 'update', path: 'sys/audit/file', needsSudo: true }), isAclDenial);
    await authorize({ operation: 'update', path: 'sys/audit/file', needsSudo: false });
  });

  it('answers help for any valid token, sudo or not', async () => {
    const authorize = await testAuthorizer();
    await authorize({ operation: 'help', path: 'sys/audit/file', needsSudo: true });
  });

  it('lets the root policy do anything', async () => {
    const authorize = await testAuthorizer();
    await authorize({ policies: ['root'], operation: 'delete', path: 'sys/raw/x', needsSudo: true });
  });

  it('checks the request data against parameter rules', async () => {
    const authorize = await testAuthorizer();
    await authorize({ operation: 'update', path: 'kv/config', data: { ttl: '1h' } });
    await assert.rejects(authorize({ operation: 'update', path: 'kv/config', data: { owner: 'x' } }), isAclDenial);
  });

  it('fills templated rules from the entity in the question', async () => {
    const authorize = await testAuthorizer();
    const question = { policies: ['default'], path: 'identity/entity/id/e1' };
    await assert.rejects(authorize(question), isAclDenial);
    await authorize({ ...question, entity: { id: 'e1' } });
  });
});
