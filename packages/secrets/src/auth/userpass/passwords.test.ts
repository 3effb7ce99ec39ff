import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PasswordHasher } from './passwords.js';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(4);

  it('hashes with the 2a prefix and the configured cost, and verifies', async () => {
    const stored = await hasher.hash('pw');
    assert.match(stored, /^\$2a\$04\$/);
    assert.equal(await hasher.verify('pw', stored), true);
    assert.equal(await hasher.verify('other', stored), false);
  });

  it('answers false for an unknown user', async () => {
    assert.equal(await hasher.verify('pw', undefined), false);
  });

  it('refuses passwords over 72 bytes, and never matches one on their first 72 bytes', async () => {
    const long = 'x'.repeat(73);
    await assert.rejects(hasher.hash(long), /password length exceeds 72 bytes/);
    const stored = await hasher.hash('x'.repeat(72));
    assert.equal(await hasher.verify(long, stored), false);
  });

  it('refuses a cost out of range', () => {
    assert.throws(() => new PasswordHasher(3), /invalid bcrypt cost 3/);
    assert.throws(() => new PasswordHasher(32), /invalid bcrypt cost 32/);
  });
});
