import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { formatGoTime } from './go-time.js';
import { rfc3339, Template, type TemplateData, templateFunctions } from './index.js';

const deps = { clock: new FakeClock('2024-03-05T07:08:09.120Z'), random: new SeededRandom(1) };
const LDIF_FUNCS = templateFunctions(deps, { isLdif: true });
const USERNAME_FUNCS = templateFunctions(deps, { isLdif: false });
const DATA: TemplateData = new Map<string, string | number>([
  ['Username', 'v_root_dev-Role_x'],
  ['Password', 'pässword'],
  ['RoleName', 'dev'],
  ['IssueTimeSeconds', 1700000000],
]);

const render = (source: string, funcs = LDIF_FUNCS) => Template.parse(source, funcs).render(DATA).toString('utf8');

describe('templates', () => {
  it('fields, pipelines with the piped value last, parentheses, literals and printf', () => {
    assert.equal(render('{{.Username | lowercase | replace "-" "_"}}'), 'v_root_dev_role_x');
    assert.equal(render('{{ .RoleName }}:{{.IssueTimeSeconds}}'), 'dev:1700000000');
    assert.equal(render('{{(printf "%s-%d" .RoleName 7) | uppercase}}'), 'DEV-7');
    assert.equal(render('{{printf "%q" "a\\"b"}}'), '"a\\"b"');
    assert.equal(render('{{`raw\\n`}}'), 'raw\\n');
  });

  it('if / else if / else with comparisons and logic, and trim markers', () => {
    const t =
      '{{if eq .RoleName "ops"}}ops{{else if and (gt .IssueTimeSeconds 5) (not false)}}late{{else}}early{{end}}';
    assert.equal(render(t), 'late');
    assert.equal(render('a  \n {{- .RoleName -}} \n  b'), 'adevb');
    assert.equal(render('{{/* a comment */}}x'), 'x');
  });

  it('each custom function on fixed inputs', () => {
    assert.equal(render('{{"myreallylongprefix-foobar" | truncate_sha256 15}}'), 'myrealle6da86ec');
    assert.equal(render('{{"short" | truncate_sha256 15}}'), 'short');
    assert.equal(render('{{"abcdef" | truncate 3}}'), 'abc');
    assert.equal(render('{{"abc" | uppercase}}{{"DEF" | lowercase}}'), 'ABCdef');
    assert.equal(render('{{"abc" | sha256}}'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(render('{{"abc" | base64}}'), 'YWJj');
    assert.equal(render('{{unix_time}} {{unix_time_millis}}'), '1709622489 1709622489120');
    assert.match(render('{{random 10}}'), /^[A-Za-z0-9]{10}$/);
    assert.match(render('{{uuid}}'), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Local time: the test's expectations are written for the zone the process runs in.
    const offsetMinutes = -new Date(deps.clock.now()).getTimezoneOffset();
    if (offsetMinutes === 0) {
      assert.equal(
        render('{{timestamp "2006-01-02T15:04:05.000Z07:00 Jan Mon _2 3PM"}}'),
        '2024-03-05T07:08:09.120Z Mar Tue  5 7AM',
      );
    }
    assert.equal(render('{{timestamp "Z literal"}}'), 'Z literal');
  });

  it('utf16le | base64 gives the AD password value byte-exact', () => {
    const out = render('{{printf "\\"%s\\"" .Password | utf16le | base64}}');
    assert.equal(out, Buffer.from('"pässword"', 'utf16le').toString('base64'));
  });

  it('utf16le is for LDIF only; unknown functions and fields are errors', () => {
    assert.throws(() => render('{{.Password | utf16le}}', USERNAME_FUNCS), /function "utf16le" not defined/);
    assert.throws(() => render('{{nope}}'), /function "nope" not defined/);
    assert.throws(() => render('{{.Nope}}'), /can't evaluate field Nope/);
    assert.throws(() => render('{{random}}'), /wrong number of args for random: want 1 got 0/);
    assert.throws(() => render('{{"x" | truncate_sha256 8}}'), /max length must be > 8 but was 8/);
    assert.throws(() => render('{{if true}}x'), /unexpected EOF/);
  });
});

describe('rfc3339 (the issue and expiration times of LDIF templates)', () => {
  it('equals the Go layout 2006-01-02T15:04:05Z07:00 in the local zone, across zones and DST changes', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham']) {
        process.env.TZ = tz;
        for (const iso of [
          '2024-01-01T00:00:00Z',
          '2024-03-10T06:59:59Z',
          '2024-03-10T07:00:00Z',
          '2024-10-06T15:30:00Z',
        ]) {
          const date = new Date(iso);
          assert.equal(rfc3339(date), formatGoTime(date, '2006-01-02T15:04:05Z07:00'), `${tz} ${iso}`);
        }
      }
      process.env.TZ = 'Asia/Kolkata';
      assert.equal(rfc3339(new Date('2024-01-01T00:00:00Z')), '2024-01-01T05:30:00+05:30');
      process.env.TZ = 'UTC';
      assert.equal(rfc3339(new Date('2024-01-01T00:00:00Z')), '2024-01-01T00:00:00Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
