import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EntityFacts, fillTemplate, isTemplate, resolveDirective } from './identity-template.js';

const entity: EntityFacts = {
  id: 'e-1',
  name: 'alice',
  metadata: { team: 'red', empty: '' },
  aliases: [
    {
      id: 'a-1',
      name: 'alice@up',
      mount_accessor: 'auth_userpass_1',
      metadata: { org: 'acme' },
      custom_metadata: { uid: '1001' },
    },
  ],
  groups: [
    { id: 'g-1', name: 'ops', metadata: { unix: 'operators' } },
    { id: 'g-2', name: 'dev.team', metadata: null },
  ],
};

describe('identity templates', () => {
  it('fills entity, alias and group directives, spaces inside the braces allowed', () => {
    const cases: Array<[string, string]> = [
      ['{{identity.entity.id}}', 'e-1'],
      ['u-{{ identity.entity.name }}', 'u-alice'],
      ['{{identity.entity.metadata.team}}.example', 'red.example'],
      ['{{identity.entity.aliases.auth_userpass_1.name}}', 'alice@up'],
      ['{{identity.entity.aliases.auth_userpass_1.id}}', 'a-1'],
      ['{{identity.entity.aliases.auth_userpass_1.metadata.org}}', 'acme'],
      ['{{identity.entity.aliases.auth_userpass_1.custom_metadata.uid}}', '1001'],
      ['{{identity.groups.ids.g-1.name}}', 'ops'],
      ['{{identity.groups.names.ops.id}}', 'g-1'],
      ['{{identity.groups.names.ops.metadata.unix}}', 'operators'],
      ['plain', 'plain'],
    ];
    for (const [template, want] of cases) assert.equal(fillTemplate(template, entity), want, template);
  });

  it('fills nothing when a value is missing or empty, the braces do not pair, or there is no entity', () => {
    for (const template of [
      '{{identity.entity.metadata.nope}}',
      '{{identity.entity.metadata.empty}}',
      '{{identity.entity.aliases.other.name}}',
      '{{identity.entity.aliases.auth_userpass_1}}',
      '{{identity.groups.names.nope.id}}',
      '{{identity.groups.ids.g-2.metadata.x}}',
      '{{identity.groups.names.ops}}',
      '{{identity.entity.nope}}',
      '{{time.now}}',
      '}}{{identity.entity.name}}',
      '{{identity.entity.name}}}}',
      '{{identity.entity.name',
    ]) {
      assert.equal(fillTemplate(template, entity), undefined, template);
    }
    assert.equal(fillTemplate('{{identity.entity.id}}', undefined), undefined);
    assert.equal(fillTemplate('{{identity.groups.names.ops.id}}', { id: 'e-2' }), undefined);
  });

  it('refuses a value holding a blocked text', () => {
    const comma: EntityFacts = { id: 'e-3', name: 'root,alice' };
    assert.equal(fillTemplate('{{identity.entity.name}}', comma, { blocked: [','] }), undefined);
    assert.equal(fillTemplate('{{identity.entity.name}}', comma), 'root,alice');
    // Only substituted values are checked, not the template's own text.
    assert.equal(fillTemplate('a,{{identity.entity.id}}', comma, { blocked: [','] }), 'a,e-3');
  });

  it('tells templates from plain text', () => {
    assert.equal(isTemplate('{{identity.entity.id}}'), true);
    assert.equal(isTemplate('x.example'), false);
  });

  it('never reads inherited properties of metadata maps', () => {
    assert.equal(fillTemplate('{{identity.entity.metadata.constructor}}', entity), undefined);
    assert.equal(fillTemplate('{{identity.groups.names.ops.metadata.toString}}', entity), undefined);
  });

  it('resolves directives in json mode as claims templates need, and in acl mode only to text', () => {
    const json = (expression: string) => resolveDirective(expression, { mode: 'json', entity });
    const acl = (expression: string) => resolveDirective(expression, { mode: 'acl', entity });
    assert.deepEqual(json('identity.entity.metadata'), { kind: 'map', value: { team: 'red', empty: '' } });
    assert.deepEqual(json('identity.entity.metadata.nope'), { kind: 'text', value: '', isBare: false });
    assert.deepEqual(json('identity.entity.aliases.other.name'), { kind: 'text', value: '', isBare: false });
    assert.deepEqual(json('identity.entity.groups.names'), { kind: 'list', value: ['ops', 'dev.team'] });
    assert.deepEqual(json('identity.groups.names.ops.id'), { kind: 'text', value: 'g-1', isBare: true });
    for (const expression of [
      'identity.entity.metadata',
      'identity.entity.metadata.nope',
      'identity.entity.groups.names',
    ])
      assert.equal(acl(expression).kind, 'missing', expression);
    assert.deepEqual(acl('identity.entity.aliases.other.name'), { kind: 'missing', reason: 'alias not found' });
  });
});
