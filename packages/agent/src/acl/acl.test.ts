import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../errors.js';
import { ACL_DISABLED, allows, allowsAgentDebug, meets } from './acl.js';
import { combineRules, parseRules } from './policy.js';

const enforced = (agent?: 'deny' | 'read' | 'write', node?: 'deny' | 'read' | 'write') => ({
  isEnforced: true,
  isManagement: false,
  rules: { agent, node },
});

describe('ACL rules', () => {
  it('parses agent and node policies and rejects bad levels and unknown areas', async () => {
    assert.deepEqual(await parseRules('agent {\n policy = "read"\n}\nnode {\n policy = "write"\n}'), {
      agent: 'read',
      node: 'write',
    });
    await assert.rejects(parseRules('agent {\n policy = "admin"\n}'), InvalidRequestError);
    await assert.rejects(parseRules('bogus {\n policy = "read"\n}'), InvalidRequestError);
    await assert.rejects(parseRules('agent {'), InvalidRequestError);
  });

  it('lets deny win over grants from other policies', () => {
    assert.deepEqual(combineRules([{ agent: 'write' }, { agent: 'deny', node: 'read' }]), {
      agent: 'deny',
      node: 'read',
    });
  });

  it('grants read with write, and nothing for deny or absent areas', () => {
    assert.equal(allows(enforced('write'), 'agent:read'), true);
    assert.equal(allows(enforced('read'), 'agent:write'), false);
    assert.equal(allows(enforced('deny'), 'agent:read'), false);
    assert.equal(allows(enforced(undefined, 'read'), 'node:read'), true);
    assert.equal(allows(enforced('write'), 'node:read'), false);
    assert.equal(allows(ACL_DISABLED, 'agent:write'), true);
  });

  it('opens the debug gate per the availability table', () => {
    assert.equal(allowsAgentDebug(ACL_DISABLED, undefined), false);
    assert.equal(allowsAgentDebug(ACL_DISABLED, true), true);
    assert.equal(allowsAgentDebug(ACL_DISABLED, false), false);
    assert.equal(allowsAgentDebug(enforced('read'), false), true);
    assert.equal(allowsAgentDebug(enforced(), true), false);
    assert.equal(allowsAgentDebug({ isEnforced: true, isManagement: true, rules: {} }, undefined), true);
  });

  it('meets a route requirement: none always, pprof only with agent:write and the debug gate', () => {
    assert.equal(meets(enforced('deny'), 'none', false), true);
    assert.equal(meets(enforced('read'), 'agent:read', false), true);
    assert.equal(meets(enforced('read'), 'debug', false), true);
    assert.equal(meets(enforced('read'), 'pprof', true), false);
    assert.equal(meets(enforced('write'), 'pprof', false), true);
    assert.equal(meets(ACL_DISABLED, 'pprof', false), false);
    assert.equal(meets(ACL_DISABLED, 'pprof', true), true);
  });
});
