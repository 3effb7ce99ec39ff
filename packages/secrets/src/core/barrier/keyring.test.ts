import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { InternalError } from '../../logical/errors.js';
import { Keyring } from './keyring.js';

describe('Keyring', () => {
  it('starts at term 1 with a random 32-byte key installed now', () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const keyring = Keyring.create(new SeededRandom(1), clock);
    assert.equal(keyring.active.term, 1);
    assert.equal(keyring.active.key.length, 32);
    assert.equal(keyring.active.installTimeMs, Date.parse('2024-01-01T00:00:00Z'));
    assert.equal(keyring.active.encryptions, 0);
  });

  it('rotates to term n+1 and keeps the old terms', () => {
    const clock = new FakeClock(1000);
    const random = new SeededRandom(2);
    const keyring = Keyring.create(random, clock);
    const first = keyring.active;
    clock.advance(500);
    const added = keyring.rotate(random, clock);
    assert.equal(added.term, 2);
    assert.equal(keyring.active, added);
    assert.equal(added.installTimeMs, 1500);
    assert.notDeepEqual(added.key, first.key);
    assert.equal(keyring.term(1), first);
    assert.equal(keyring.term(3), undefined);
  });

  it('survives a JSON round trip, keys included', () => {
    const random = new SeededRandom(3);
    const clock = new FakeClock(0);
    const keyring = Keyring.create(random, clock);
    keyring.rotate(random, clock);
    keyring.active.encryptions = 7;
    const json = keyring.toJson();
    assert.ok(json.includes(Buffer.from(keyring.term(1)?.key ?? []).toString('base64')));
    const back = Keyring.fromJson(json);
    assert.equal(back.active.term, 2);
    assert.equal(back.active.encryptions, 7);
    assert.deepEqual(back.term(1)?.key, keyring.term(1)?.key);
    assert.deepEqual(back.term(2)?.key, keyring.term(2)?.key);
  });

  it('rotates a clone without changing the original, sharing the encryption counts', () => {
    const random = new SeededRandom(4);
    const clock = new FakeClock(0);
    const keyring = Keyring.create(random, clock);
    const next = keyring.clone();
    next.rotate(random, clock);
    assert.equal(keyring.active.term, 1);
    assert.equal(next.active.term, 2);
    keyring.active.encryptions++;
    assert.equal(next.term(1)?.encryptions, 1);
  });

  it('zeroes its keys', () => {
    const keyring = Keyring.create(new SeededRandom(5), new FakeClock(0));
    const key = keyring.active.key;
    keyring.zero();
    assert.ok(key.every((b) => b === 0));
  });

  it('refuses a damaged stored keyring', () => {
    assert.throws(() => Keyring.fromJson('{'), InternalError);
    assert.throws(() => Keyring.fromJson('{"active_term":1,"terms":[]}'), InternalError);
    assert.throws(
      () => Keyring.fromJson('{"active_term":1,"terms":[{"term":1,"key":"AAAA","install_time_ms":0,"encryptions":0}]}'),
      InternalError,
    );
  });
});
