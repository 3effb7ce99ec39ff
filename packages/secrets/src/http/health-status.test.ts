import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { healthStatus } from './sys-raw.js';

const active = { initialized: true, sealed: false, standby: false, perfStandby: false };
const standby = { ...active, standby: true };
const perfStandby = { ...standby, perfStandby: true };
const status = (query: string, state: typeof active) => healthStatus(new URLSearchParams(query), state);

describe('sys/health status codes (established precedence and overrides)', () => {
  it('answers 429 for a standby, 200 with standbyok, and the standbycode given', () => {
    assert.equal(status('', standby), 429);
    assert.equal(status('standbyok=true', standby), 200);
    assert.equal(status('standbycode=299', standby), 299);
  });

  it('answers 473 for a performance standby unless perfstandbyok; standbyok does not cover it', () => {
    assert.equal(status('', perfStandby), 473);
    assert.equal(status('standbyok=true', perfStandby), 473);
    assert.equal(status('perfstandbyok=true', perfStandby), 200);
    assert.equal(status('perfstandbyok=true&activecode=204', perfStandby), 204);
    assert.equal(status('perfstandbycode=298', perfStandby), 298);
    assert.equal(status('performancestandbycode=297', perfStandby), 297);
  });

  it('puts uninitialised before sealed before standby, and refuses a code that is not a number', () => {
    assert.equal(status('', { ...perfStandby, initialized: false }), 501);
    assert.equal(status('', { ...standby, sealed: true }), 503);
    assert.throws(() => status('perfstandbycode=abc', perfStandby), InvalidRequestError);
    assert.equal(status('', active), 200);
  });
});
