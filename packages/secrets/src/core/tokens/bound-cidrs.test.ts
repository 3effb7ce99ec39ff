import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAddressInCidrs, parseCidrs } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { createTestTokenStore, SYSTEM_TTLS } from './testing.js';
import { defaultRole } from './token-roles.js';

describe('bound CIDRs', () => {
  it('match IPv4, IPv6 and IPv4-mapped addresses', () => {
    const cidrs = parseCidrs(['10.0.0.0/8', '2001:db8::/32', '192.168.1.7'], 'f');
    assert.deepEqual(cidrs, ['10.0.0.0/8', '2001:db8::/32', '192.168.1.7/32']);
    assert.equal(isAddressInCidrs(cidrs, '10.1.2.3'), true);
    assert.equal(isAddressInCidrs(cidrs, '::ffff:10.1.2.3'), true);
    assert.equal(isAddressInCidrs(cidrs, '11.0.0.1'), false);
    assert.equal(isAddressInCidrs(cidrs, '2001:db8:1::5'), true);
    assert.equal(isAddressInCidrs(cidrs, '2001:db9::5'), false);
    assert.equal(isAddressInCidrs(cidrs, '192.168.1.7'), true);
    assert.equal(isAddressInCidrs(cidrs, '192.168.1.8'), false);
    assert.equal(isAddressInCidrs(cidrs, 'not an address'), false);
  });

  it('refuses malformed blocks', () => {
    for (const bad of ['10.0.0.0/33', 'fe80::/129', 'host/8', '10.0.0.0/8/1', '10.0.0.0/x']) {
      assert.throws(() => parseCidrs([bad], 'token_bound_cidrs'), InvalidRequestError, bad);
    }
  });

  it('bind role tokens, their children inherit them, and non-expiring tokens ignore them', async () => {
    const { store, root } = await createTestTokenStore();
    const role = await store.roles.put({
      ...defaultRole('net'),
      token_bound_cidrs: ['127.0.0.0/8', '::1/128'],
      allowed_policies: ['dev'],
    });
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const bound = await store.create({ path: 'auth/token/create/net' }, { ...ctx, role });
    assert.equal(store.checkCidrs(bound.entry, '127.0.0.1'), true);
    assert.equal(store.checkCidrs(bound.entry, '::1'), true);
    assert.equal(store.checkCidrs(bound.entry, '10.0.0.1'), false);
    const child = await store.create({ path: 'auth/token/create' }, { ...ctx, parent: bound.entry });
    assert.deepEqual(child.entry.bound_cidrs, ['127.0.0.0/8', '::1/128']);
    assert.equal(store.checkCidrs({ ...bound.entry, expire_time_ms: 0 }, '10.0.0.1'), true);
    assert.equal(store.checkCidrs(root.entry, '10.0.0.1'), true);
  });
});
