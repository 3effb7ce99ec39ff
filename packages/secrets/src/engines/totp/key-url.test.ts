import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as OTPAuth from 'otpauth';
import { InvalidRequestError } from '../../logical/errors.js';
import { buildKeyUrl, parseKeyUrl } from './key-url.js';

const URL_ERROR = 'an error occurred while parsing url string';

function parseError(url: string): string {
  try {
    parseKeyUrl(url);
  } catch (err) {
    assert.ok(err instanceof InvalidRequestError);
    return err.message;
  }
  assert.fail(`${url} parsed`);
}

describe('parseKeyUrl', () => {
  it('reads the reference example', () => {
    const url = 'otpauth://totp/Example%20Co:alice@example.com?secret=jbswy3dpehpk3pxp&issuer=Example%20Co&digits=8';
    assert.deepEqual(parseKeyUrl(url), {
      account_name: 'alice@example.com',
      issuer: 'Example Co',
      key: 'jbswy3dpehpk3pxp',
      digits: 8,
    });
  });

  it('takes the issuer from the parameter, else from the label, else leaves it to the body', () => {
    assert.equal(parseKeyUrl('otpauth://totp/Label:acct?issuer=Param&secret=A').issuer, 'Param');
    assert.equal(parseKeyUrl('otpauth://totp/Label:acct?issuer=&secret=A').issuer, 'Label');
    assert.equal(parseKeyUrl('otpauth://totp/acct?secret=A').issuer, undefined);
  });

  it('splits the label at the first colon and always sets the account name', () => {
    assert.deepEqual(parseKeyUrl('otpauth://totp/a:b:c?secret=A'), { account_name: 'b:c', issuer: 'a', key: 'A' });
    assert.equal(parseKeyUrl('otpauth://totp/?secret=A').account_name, '');
    assert.equal(parseKeyUrl('otpauth://totp').account_name, '');
  });

  it('gives an empty key when the URL has no secret', () => {
    assert.equal(parseKeyUrl('otpauth://totp/a:b').key, '');
  });

  it('reads period and digits as plain integers only', () => {
    assert.equal(parseKeyUrl('otpauth://totp/x?period=60').period, 60);
    assert.equal(parseKeyUrl('otpauth://totp/x?period=%2B45').period, 45);
    assert.equal(parseKeyUrl('otpauth://totp/x?period=-5').period, -5, 'refused later by the period rule');
    assert.equal(parseError('otpauth://totp/x?period=30s'), 'an error occurred while parsing period value in url');
    assert.equal(
      parseError('otpauth://totp/x?period=99999999999999999999'),
      'an error occurred while parsing period value in url',
    );
    assert.equal(parseError('otpauth://totp/x?digits=six'), 'an error occurred while parsing digits value in url');
    assert.equal(parseError('otpauth://totp/x?digits=6.0'), 'an error occurred while parsing digits value in url');
  });

  it('keeps body values for parameters that are absent or empty', () => {
    assert.deepEqual(parseKeyUrl('otpauth://totp/x?period=&digits=&algorithm='), { account_name: 'x', key: '' });
  });

  it('takes the algorithm as written (case is checked later)', () => {
    assert.equal(parseKeyUrl('otpauth://totp/x?algorithm=sha256').algorithm, 'sha256');
  });

  it('checks neither scheme nor host', () => {
    assert.equal(parseKeyUrl('otpauth://hotp/i:a?secret=A').account_name, 'a');
    assert.equal(parseKeyUrl('https://example.com/i:a?secret=A').issuer, 'i');
    assert.equal(parseKeyUrl('/i:a?secret=A').issuer, 'i', 'no scheme at all');
  });

  it('decodes the query as a form: + is a space, a pair with ; is dropped, the first value wins', () => {
    assert.equal(parseKeyUrl('otpauth://totp/x?issuer=A+B').issuer, 'A B');
    assert.equal(parseKeyUrl('otpauth://totp/x?issuer=A;B&secret=S').issuer, undefined);
    assert.equal(parseKeyUrl('otpauth://totp/x?secret=ONE&secret=TWO').key, 'ONE');
    assert.equal(parseKeyUrl('otpauth://totp/x?issuer=%zz&secret=S').key, 'S', 'a bad escape drops only its pair');
  });

  it('keeps + literal in the label (path decoding, not form decoding)', () => {
    assert.equal(parseKeyUrl('otpauth://totp/a+b:c%2Bd').account_name, 'c+d');
    assert.equal(parseKeyUrl('otpauth://totp/a+b:c').issuer, 'a+b');
  });

  it('treats a scheme without // and / as opaque: no label', () => {
    assert.deepEqual(parseKeyUrl('Example:alice?secret=S'), { account_name: '', key: 'S' });
  });

  it("fails where Go's url.Parse fails", () => {
    for (const url of [
      'otpauth://totp/%zz?secret=A',
      'otpauth://totp/a%2?secret=A',
      ':totp/a',
      '1abc:def/x',
      'otpauth://totp:abc/x',
      'otpauth://totp/a\tb',
      'otpauth://totp/a?secret=A#%zz',
    ]) {
      assert.equal(parseError(url), URL_ERROR, url);
    }
  });
});

describe('buildKeyUrl', () => {
  const base = { algorithm: 'SHA1', digits: 6, period: 30, secret: 'HTXT7KJFVNAJUPYWQRWMNVQE5AF5YZI2' };

  it('writes the established example exactly', () => {
    assert.equal(
      buildKeyUrl({ ...base, issuer: 'Vault', account_name: 'test@test.com' }),
      'otpauth://totp/Vault:test@test.com?algorithm=SHA1&digits=6&issuer=Vault&period=30&secret=HTXT7KJFVNAJUPYWQRWMNVQE5AF5YZI2',
    );
  });

  it('escapes the label as a path and parameters as path segments', () => {
    const url = buildKeyUrl({ ...base, issuer: 'A Co/x?#&+', account_name: 'bob@x.io:1 ü' });
    assert.equal(
      url,
      'otpauth://totp/A%20Co/x%3F%23&+:bob@x.io:1%20%C3%BC?algorithm=SHA1&digits=6&issuer=A%20Co%2Fx%3F%23&+&period=30&secret=HTXT7KJFVNAJUPYWQRWMNVQE5AF5YZI2',
    );
  });

  it('is read back by an independent otpauth:// parser', () => {
    const url = buildKeyUrl({
      ...base,
      issuer: 'Example Co',
      account_name: 'alice@example.com',
      algorithm: 'SHA512',
      digits: 8,
      period: 60,
    });
    const parsed = OTPAuth.URI.parse(url);
    assert.ok(parsed instanceof OTPAuth.TOTP);
    assert.equal(parsed.issuer, 'Example Co');
    assert.equal(parsed.label, 'alice@example.com');
    assert.equal(parsed.algorithm, 'SHA512');
    assert.equal(parsed.digits, 8);
    assert.equal(parsed.period, 60);
    assert.equal(parsed.secret.base32, base.secret);
  });

  it('round-trips through parseKeyUrl', () => {
    const url = buildKeyUrl({ ...base, issuer: 'Example Co', account_name: 'alice@example.com' });
    assert.deepEqual(parseKeyUrl(url), {
      account_name: 'alice@example.com',
      issuer: 'Example Co',
      key: base.secret,
      period: 30,
      digits: 6,
      algorithm: 'SHA1',
    });
  });
});
