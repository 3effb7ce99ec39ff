import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseServer } from './server-list.js';

describe('normaliseServer', () => {
  it('adds the default RPC port, and brackets to a bare IPv6 address', () => {
    assert.equal(normaliseServer('10.0.0.1'), '10.0.0.1:4647');
    assert.equal(normaliseServer('10.0.0.1:9000'), '10.0.0.1:9000');
    assert.equal(normaliseServer('fe80::1'), '[fe80::1]:4647');
    assert.equal(normaliseServer('[fe80::1]:9000'), '[fe80::1]:9000');
    assert.equal(normaliseServer('server.example'), 'server.example:4647');
  });
});
