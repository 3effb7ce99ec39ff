import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import type { AuditedRequest } from './audit-broker.js';
import { type EntryFormat, requestEntry, responseEntry } from './audit-entry.js';
import { hashStrings, hmacHasher, rawHasher } from './audit-hash.js';

// biome-ignore lint/suspicious/noExplicitAny: entries are JSON the test walks freely
type Json = Record<string, any>;

const hash = hmacHasher(new Uint8Array(32).fill(7));
const HASHED: EntryFormat = { hash, hmacAccessor: true, elideListResponses: false };
const ctx = { timeMs: Date.UTC(2026, 0, 2, 3, 4, 5, 600), namespaceId: 'aB3dE' };

function audited(over: Partial<AuditedRequest> = {}): AuditedRequest {
  return {
    request: {
      id: 'req-1',
      operation: 'update',
      path: 'team/secret/data/x',
      data: { data: { password: 'p', nested: ['a', 1, null, { b: 'c' }] } },
      clientToken: 'hvs.secret-token',
      remoteAddress: '10.0.0.1',
      namespace: '',
    },
    namespacePath: 'team/',
    mountType: 'kv',
    caller: { accessor: 'acc-1', policies: ['default', 'app'], entityId: '', displayName: 'token-app' },
    operation: 'create',
    ...over,
  };
}

describe('audit entries', () => {
  it('hashes every string at any depth and keeps numbers, booleans, null and keys', () => {
    assert.deepEqual(hashStrings({ a: 'x', b: [1, true, null, 'y'], c: { d: 'z' } }, hash), {
      a: hash('x'),
      b: [1, true, null, hash('y')],
      c: { d: hash('z') },
    });
    assert.match(hash('x'), /^hmac-sha256:[0-9a-f]{64}$/);
    assert.notEqual(hash('x'), hmacHasher(new Uint8Array(32).fill(8))('x'), 'each salt gives its own digests');
  });

  it('writes the request entry with the path inside its namespace, token and accessor hashed', () => {
    const e = requestEntry(audited(), ctx, HASHED);
    assert.deepEqual(e, {
      time: '2026-01-02T03:04:05.6Z',
      type: 'request',
      auth: {
        client_token: hash('hvs.secret-token'),
        accessor: hash('acc-1'),
        display_name: 'token-app',
        policies: ['default', 'app'],
        token_policies: ['default', 'app'],
        entity_id: '',
      },
      request: {
        id: 'req-1',
        operation: 'create',
        mount_type: 'kv',
        client_token: hash('hvs.secret-token'),
        client_token_accessor: hash('acc-1'),
        namespace: { id: 'aB3dE', path: 'team/' },
        path: 'secret/data/x',
        remote_address: '10.0.0.1',
        data: { data: { password: hash('p'), nested: [hash('a'), 1, null, { b: hash('c') }] } },
      },
      error: '',
    });
  });

  it('leaves accessors plain without hmac_accessor, and everything plain with log_raw', () => {
    const plainAccessor = requestEntry(audited(), ctx, { ...HASHED, hmacAccessor: false });
    assert.equal((plainAccessor.auth as Record<string, unknown>).accessor, 'acc-1');
    assert.equal((plainAccessor.request as Record<string, unknown>).client_token, hash('hvs.secret-token'));
    const raw = requestEntry(audited(), ctx, { hash: rawHasher, hmacAccessor: true, elideListResponses: false });
    assert.equal((raw.request as Record<string, unknown>).client_token, 'hvs.secret-token');
  });

  it('hashes an issued token in the response and keeps lease ids and warnings', () => {
    const e = responseEntry(
      audited(),
      {
        response: {
          auth: {
            client_token: 'hvs.new',
            accessor: 'acc-new',
            policies: ['default'],
            token_policies: ['default'],
            metadata: { user: 'alice' },
            lease_duration: 60,
            renewable: true,
            entity_id: '',
            token_type: 'service',
            orphan: false,
            num_uses: 0,
            mfa_requirement: null,
          },
          lease: { leaseId: 'kv/lease/1', leaseDurationSeconds: 60, renewable: true },
          warnings: ['careful'],
        },
      },
      ctx,
      HASHED,
    );
    const response = e.response as Json;
    assert.equal(response.auth.client_token, hash('hvs.new'));
    assert.equal(response.auth.accessor, hash('acc-new'));
    assert.deepEqual(response.auth.metadata, { user: 'alice' }, 'metadata stays plain');
    assert.deepEqual(response.secret, { lease_id: 'kv/lease/1' });
    assert.deepEqual(response.warnings, ['careful']);
  });

  it('replaces list keys by their count with elide_list_responses', () => {
    const list = audited({ operation: 'list' });
    const response = { data: { keys: ['a', 'b', 'c'], key_info: { a: {}, b: {} } } };
    const elided = responseEntry(list, { response }, ctx, { ...HASHED, elideListResponses: true });
    assert.deepEqual((elided.response as Record<string, unknown>).data, { keys: 3, key_info: 2 });
    const full = responseEntry(list, { response }, ctx, HASHED);
    assert.deepEqual((full.response as Json).data.keys, [hash('a'), hash('b'), hash('c')]);
  });

  it('writes the error text plainly, and an unexpected error as the client saw it', () => {
    const refused = responseEntry(audited(), { error: new InvalidRequestError('bad input') }, ctx, HASHED);
    assert.equal(refused.error, 'bad input');
    assert.deepEqual(refused.response, {});
    assert.equal(
      responseEntry(audited(), { error: new InternalError('disk detail') }, ctx, HASHED).error,
      'internal error',
    );
    assert.equal(responseEntry(audited(), { error: new Error('boom') }, ctx, HASHED).error, 'internal error');
  });

  it('writes an empty auth for an unauthenticated request, and the root namespace by id only', () => {
    const e = requestEntry(
      audited({ caller: undefined, namespacePath: '', request: { ...audited().request, clientToken: '', data: {} } }),
      { ...ctx, namespaceId: 'root' },
      HASHED,
    );
    assert.deepEqual(e.auth, {});
    const request = e.request as Record<string, unknown>;
    assert.deepEqual(request.namespace, { id: 'root' });
    assert.equal(request.path, 'team/secret/data/x');
    assert.equal(request.client_token, '');
    assert.equal('data' in request, false);
  });
});
