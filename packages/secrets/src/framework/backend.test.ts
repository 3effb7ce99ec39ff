import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';
import { InmemStorage } from '../storage/index.js';
import { type BackendContext, createBackend } from './backend.js';
import { field } from './fields.js';
import { definePath } from './path.js';
import { testBackend } from './testing.js';

// Issue 14 point 5: enum fields, per-operation required fields, one place for an empty LIST.

/** A toy engine: `items/:name` with an enum `color` and a `size` needed only on update. */
function createToyBackend(ctx: BackendContext) {
  return createBackend({
    type: 'toy',
    storage: ctx.storage,
    help: 'Toy.',
    paths: [
      definePath({
        pattern: 'items/',
        fields: {},
        operations: {
          list: {
            summary: 'List.',
            handler: async ({ storage }) => ({ data: { keys: await storage.list('items/') } }),
          },
        },
        help: { synopsis: 'List items.', description: '' },
      }),
      definePath({
        pattern: 'items/:name',
        fields: {
          name: field.path({ description: 'Name.' }),
          color: field.enum({ description: 'Color.', values: ['red', 'green'], default: 'red' }),
          size: field.int({ description: 'Size.', requiredFor: ['update'] }),
        },
        existenceCheck: async ({ storage, data }) => (await storage.get(`items/${data.name}`)) !== undefined,
        operations: {
          read: {
            summary: 'Read.',
            handler: async ({ storage, data }) => {
              const raw = await storage.get(`items/${data.name}`);
              return raw ? { data: JSON.parse(new TextDecoder().decode(raw)) } : undefined;
            },
          },
          update: {
            summary: 'Write.',
            handler: async ({ storage, data }) => {
              const value = { color: data.color, size: data.size };
              await storage.put(`items/${data.name}`, new TextEncoder().encode(JSON.stringify(value)));
              return undefined;
            },
          },
          delete: { summary: 'Delete.', handler: async () => undefined },
        },
        help: { synopsis: 'An item.', description: '' },
      }),
    ],
  });
}

describe('createBackend', () => {
  it('accepts an enum field’s values only, and shows them in OpenAPI', async () => {
    const b = await testBackend(createToyBackend);
    await b.write('items/a', { color: 'green', size: 1 });
    assert.deepEqual((await b.read('items/a'))?.data, { color: 'green', size: 1 });
    await assert.rejects(b.write('items/a', { color: 'blue', size: 1 }), InvalidRequestError);
    const color = b.backend.paths[1]?.spec.fields.color;
    assert.deepEqual(color?.openapi.enum, ['red', 'green']);
  });

  it('requires a field on the operations that name it (create standing for update)', async () => {
    const b = await testBackend(createToyBackend);
    await assert.rejects(b.write('items/a', {}), { message: 'missing required field "size"' });
    await b.write('items/a', { size: 2 });
    await assert.rejects(b.write('items/a', { color: 'red' }), { message: 'missing required field "size"' });
    assert.equal(await b.delete('items/a'), undefined, 'not required to delete');
  });

  it('takes a field whose name differs only in case when the exact name is absent, the first in key order', async () => {
    const b = await testBackend(createToyBackend);
    await b.write('items/a', { Color: 'green', SIZE: 3 });
    assert.deepEqual((await b.read('items/a'))?.data, { color: 'green', size: 3 });
    await b.write('items/b', { COLOR: 'green', color: 'red', size: 1 });
    assert.equal((await b.read('items/b'))?.data?.color, 'red', 'the exact name wins');
    await b.write('items/c', { COLOR: 'green', Color: 'red', size: 1 });
    assert.equal((await b.read('items/c'))?.data?.color, 'green', 'the first of the case variants');
  });

  it('answers an empty LIST with a 404 for every path', async () => {
    const b = await testBackend(createToyBackend);
    await assert.rejects(b.list('items/'), NotFoundError);
    await b.write('items/a', { size: 1 });
    assert.deepEqual((await b.list('items/'))?.data, { keys: ['a'] });
  });

  it('matches a path once: match() gives the existence check and the handler', async () => {
    const b = await testBackend(createToyBackend);
    assert.equal(b.backend.match('nothing/here'), undefined);
    const target = b.backend.match('items/x');
    const req = {
      id: '1',
      operation: 'update' as const,
      path: 'items/x',
      data: {},
      mountPoint: 't/',
      remoteAddress: '',
    };
    assert.equal(await target?.exists(req), false);
  });

  // Issue 30 point 3: optional features are declared, never found by the shape of the object.
  it('tells, on the match, whether a path is declared forwardToActive (a performance standby forwards it)', async () => {
    const readable = (pattern: string, forwardToActive?: boolean) =>
      definePath({
        pattern,
        fields: { name: field.path({ description: 'Name.' }) },
        forwardToActive,
        operations: { read: { summary: 'Read.', handler: async () => ({ data: {} }) } },
        help: { synopsis: 'A path.', description: '' },
      });
    const paths = [readable('timers/:name', true), readable('items/:name')];
    const b = createBackend({ type: 'toy', storage: new InmemStorage(), help: '', paths });
    assert.equal(b.match('timers/a')?.forwardToActive, true);
    assert.equal(b.match('items/a')?.forwardToActive, false, 'undeclared: a standby serves its reads');
  });

  it('carries the declared renewLogin and lockout to the backend, and leaves them absent otherwise', async () => {
    const base = { type: 'toy', storage: new InmemStorage(), help: '', paths: [] };
    const renewal = { ttl: 60, maxTtl: 120, period: 0 };
    const unlocked: string[] = [];
    const b = createBackend({
      ...base,
      renewLogin: async ({ metadata }) => (metadata.name === 'gone' ? null : renewal),
      lockout: { lockedUsers: () => [{ aliasName: 'bob', lockedSinceMs: 5 }], unlockUser: (n) => unlocked.push(n) },
    });
    assert.deepEqual(await b.renewLogin?.({ metadata: { name: 'x' }, policies: [] }), renewal);
    assert.equal(await b.renewLogin?.({ metadata: { name: 'gone' }, policies: [] }), null);
    assert.deepEqual(b.lockout?.lockedUsers(), [{ aliasName: 'bob', lockedSinceMs: 5 }]);
    b.lockout?.unlockUser('bob');
    assert.deepEqual(unlocked, ['bob']);
    const plain = createBackend(base);
    assert.equal(plain.renewLogin, undefined);
    assert.equal(plain.lockout, undefined);
  });

  it('gives the existence check the path’s captures only: a bad body field is the write’s 400', async () => {
    const b = await testBackend(createToyBackend);
    await b.write('items/x', { size: 1 });
    const target = b.backend.match('items/x');
    const req = {
      id: '1',
      operation: 'update' as const,
      path: 'items/x',
      data: { size: 'not a number', color: 'blue' },
      mountPoint: 't/',
      remoteAddress: '',
    };
    assert.equal(await target?.exists(req), true, 'not refused for fields it does not read');
    await assert.rejects(target?.handle(req) ?? Promise.resolve(), /error converting input for field "color"/);
  });
});
