import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LdifEntry, parseLdif } from './ldif.js';

const parse = (text: string) => parseLdif(Buffer.from(text, 'latin1'));

/** Entries with values as text, for comparing. */
function plain(entries: LdifEntry[]) {
  return entries.map((e) => {
    if (e.kind === 'add')
      return { ...e, attributes: Object.fromEntries([...e.attributes].map(([k, v]) => [k, v.map(String)])) };
    if (e.kind === 'modify') return { ...e, changes: e.changes.map((c) => ({ ...c, values: c.values.map(String) })) };
    return e;
  });
}

describe('LDIF parsing (the rules of go-ldap/ldif as the established engine pins it)', () => {
  it('records split by blank lines, continuation lines joined, comments (and their continuations) dropped, version 1', () => {
    const text = [
      'version: 1',
      '# a comment',
      ' still the comment',
      'dn: cn=a,dc=example,',
      ' dc=org',
      'objectClass: inetOrgPerson',
      'cn: a',
      'description:   leading spaces go, trailing stay  ',
      'description:: aGVsbG8=',
      'control: 1.2.3 true',
      '\r',
      'dn: cn=b,dc=example,dc=org',
      'changetype: delete',
      '',
    ].join('\n');
    assert.deepEqual(plain(parse(text)), [
      {
        kind: 'add',
        dn: 'cn=a,dc=example,dc=org',
        attributes: {
          objectClass: ['inetOrgPerson'],
          cn: ['a'],
          description: ['leading spaces go, trailing stay  ', 'hello'],
        },
      },
      { kind: 'delete', dn: 'cn=b,dc=example,dc=org' },
    ]);
  });

  it('modify: add/replace/delete groups each closed by -, a group without values allowed', () => {
    const text = 'dn: cn=g\nchangetype: modify\nadd: member\nmember: cn=a\nmember: cn=b\n-\ndelete: description\n-\n';
    assert.deepEqual(plain(parse(text)), [
      {
        kind: 'modify',
        dn: 'cn=g',
        changes: [
          { operation: 'add', type: 'member', values: ['cn=a', 'cn=b'] },
          { operation: 'delete', type: 'description', values: [] },
        ],
      },
    ]);
  });

  it('keeps binary base64 values byte-exact (AD unicodePwd)', () => {
    const [entry] = parse('dn: cn=a\nchangetype: modify\nreplace: unicodePwd\nunicodePwd:: IgBwACIA\n-\n');
    assert.ok(entry?.kind === 'modify');
    assert.deepEqual([...(entry.changes[0]?.values[0] ?? [])], [0x22, 0, 0x70, 0, 0x22, 0]);
  });

  it('refuses what the rules refuse, naming the line', () => {
    const refusals: Array<[string, RegExp]> = [
      ['version: 2\ndn: cn=a\ncn: a\n', /^Error in line 1: invalid version/],
      ['cn: a\n', /^Error in line 1: record must start with dn:/],
      ['dn: cn=a\n', /^Error in line 1: only a dn: line/],
      ['dn: cn=a\ncn:\n', /^Error in line 2: empty value/],
      ['dn: cn=a\ncn:< file:///etc/passwd\n', /^Error in line 2: file references are not supported/],
      ['dn: cn=a\n_bad: x\n', /^Error in line 2: invalid attribute name "_bad"/],
      ['dn: cn=a\nchangetype: modrdn\nnewrdn: cn=b\n', /^Error in line 2: unsupported changetype/],
      ['dn: cn=a\nchangetype: rename\n', /^Error in line 2: invalid changetype rename/],
      ['dn: cn=a\nchangetype: delete\ncn: a\n', /^Error in line 3: no attributes may follow a delete/],
      ['dn: cn=a\nchangetype: modify\nreplace: cn\ncn: b\n', /does not close with a single dash/],
      [
        'dn: cn=a\nchangetype: modify\nreplace: cn\nsn: b\n-\n',
        /^Error in line 4: invalid attribute sn in replace request for cn/,
      ],
      ['dn: cn=a\nchangetype: modify\nrename: cn\n-\n', /^Error in line 3: invalid modify operation rename/],
      [' continued\n', /^Error in line 1: continuation line without a line before it/],
    ];
    for (const [text, message] of refusals) {
      assert.throws(
        () => parse(text),
        (err: Error) => message.test(err.message),
        JSON.stringify(text),
      );
    }
  });

  it('each record carries its own changetype (no memory of the previous record, unlike the pinned library)', () => {
    const text = 'dn: cn=g\nchangetype: modify\nreplace: cn\ncn: g\n-\n\ndn: cn=a\ncn: a\n';
    assert.deepEqual(
      parse(text).map((e) => e.kind),
      ['modify', 'add'],
    );
  });
});
