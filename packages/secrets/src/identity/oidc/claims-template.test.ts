import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import {
  checkClaimsTemplate,
  fillClaimsTemplate,
  mergeClaims,
  TemplateError,
  type TemplateFacts,
} from './claims-template.js';

const facts: TemplateFacts = {
  entity: {
    id: 'e1',
    name: 'alice',
    metadata: { team: 'infra' },
    aliases: [
      { id: 'a1', name: 'alice@corp', mount_accessor: 'auth_x', metadata: { org: 'c' }, custom_metadata: null },
    ],
  },
  groups: [{ id: 'g1', name: 'ops', namespace_id: 'root', metadata: { tier: 'gold' } }],
  namespaceId: 'root',
  nowMs: 1_700_000_000_000,
};

describe('claims templates (JSON mode)', () => {
  it('fills entity, alias, group and time directives as JSON values', () => {
    const filled = fillClaimsTemplate(
      '{"n": {{identity.entity.name}}, "m": {{identity.entity.metadata}}, "t": {{ identity.entity.metadata.team }},' +
        ' "missing": {{identity.entity.metadata.nope}}, "a": {{identity.entity.aliases.auth_x.name}},' +
        ' "am": {{identity.entity.aliases.auth_x.metadata.org}}, "none": {{identity.entity.aliases.other.name}},' +
        ' "g": {{identity.entity.groups.names}}, "gi": {{identity.entity.groups.ids}},' +
        ' "tier": "{{identity.groups.names.ops.metadata.tier}}", "gid": "{{identity.groups.ids.g1.name}}",' +
        ' "now": {{time.now}}, "later": {{time.now.plus.1h}}}',
      facts,
    );
    assert.deepEqual(JSON.parse(filled), {
      n: 'alice',
      m: { team: 'infra' },
      t: 'infra',
      missing: '',
      a: 'alice@corp',
      am: 'c',
      none: '',
      g: ['ops'],
      gi: ['g1'],
      tier: 'gold',
      gid: 'ops',
      now: 1_700_000_000,
      later: 1_700_003_600,
    });
  });

  it('refuses unbalanced braces, unknown directives and groups the entity is not in', () => {
    for (const bad of [
      '{"x": }}',
      '{"x": {{identity.entity.name}',
      '{{identity.entity.nope}}',
      '{{identity.groups.names.dev.id}}',
      '{{time.later}}',
    ])
      assert.throws(() => fillClaimsTemplate(bad, facts), TemplateError, bad);
    assert.throws(() => fillClaimsTemplate('{{identity.entity.id}}', { ...facts, entity: undefined }), TemplateError);
  });

  it('checks a template when configured: base64 decoded, JSON object, no reserved claims', () => {
    const template = '{"n": {{identity.entity.name}}}';
    assert.equal(checkClaimsTemplate(Buffer.from(template).toString('base64')), template);
    assert.equal(checkClaimsTemplate(''), '');
    for (const bad of ['{"nonce": 1}', '[1]', '{"x": {{identity.entity.name}}', '{"g": {{identity.groups.ids.g1.id}}}'])
      assert.throws(() => checkClaimsTemplate(bad), InvalidRequestError, bad);
  });

  it('merges claims as own properties, never the reserved ones', () => {
    const claims: Record<string, unknown> = { sub: 'e1' };
    mergeClaims(claims, ['{"sub": "evil", "__proto__": {"polluted": true}, "x": 1}', 'not json']);
    assert.equal(claims.sub, 'e1');
    assert.equal(claims.x, 1);
    assert.equal(Object.getPrototypeOf(claims), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(claims, '__proto__')?.value, { polluted: true });
  });
});
