import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { type AuditTableEntry, openDevice } from './audit-device.js';

const entry = (type: string, options: Record<string, string>): AuditTableEntry => ({
  path: 'x/',
  type,
  description: '',
  options,
  local: false,
  uuid: 'u',
  salt: '00'.repeat(32),
});

const refused = async (e: AuditTableEntry, message: string) => {
  await assert.rejects(openDevice(e, false), (err: unknown) => {
    assert.ok(err instanceof InvalidRequestError);
    assert.equal(err.message, message);
    return true;
  });
};

describe('audit device options', () => {
  it('applies the defaults: accessors hashed, lists kept, no prefix', async () => {
    const d = await openDevice(entry('file', { file_path: 'discard' }), true);
    assert.deepEqual([d.format.hmacAccessor, d.format.elideListResponses, d.prefix], [true, false, '']);
    assert.match(d.format.hash('x'), /^hmac-sha256:/);
  });

  it('reads the common options', async () => {
    const d = await openDevice(
      entry('file', {
        file_path: 'discard',
        hmac_accessor: 'false',
        elide_list_responses: 'true',
        log_raw: 'true',
        prefix: '@',
      }),
      false,
    );
    assert.deepEqual([d.format.hmacAccessor, d.format.elideListResponses, d.prefix], [false, true, '@']);
    assert.equal(d.format.hash('x'), 'x', 'log_raw writes values as they are');
  });

  it('refuses unknown types, formats, booleans and modes, and incomplete socket options', async () => {
    await refused(entry('syslog9', {}), 'unknown backend type: "syslog9"');
    await refused(
      entry('file', { file_path: 'discard', format: 'jsonx' }),
      'unknown format type "jsonx": only json is supported',
    );
    await refused(
      entry('file', { file_path: 'discard', log_raw: 'maybe' }),
      `unable to parse 'log_raw': "maybe" is not a boolean`,
    );
    await refused(
      entry('file', { file_path: '/tmp/x.log', mode: '0999' }),
      'invalid mode "0999": want octal, e.g. 0600',
    );
    await refused(entry('socket', {}), 'address is required');
    await refused(entry('socket', { address: 'nohost' }), 'invalid address "nohost": want host:port');
    await refused(
      entry('socket', { address: 'h:1', socket_type: 'sctp' }),
      'unsupported socket_type "sctp": use tcp, udp or unix',
    );
  });
});
