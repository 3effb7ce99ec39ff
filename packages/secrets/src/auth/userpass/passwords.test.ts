import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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

  it(
    'hashes on threads of the lowest CPU priority, so the event loop keeps its cores',
    { skip: process.platform !== 'linux' },
    async () => {
      await hasher.hash('pw');
      // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value.
      const nices = readdirSync('/proc/self/task').map((tid) => {
        const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return Number(fields[16]);
      });
      assert.ok(nices.includes(19), `no thread at nice 19 among ${nices.join(', ')}`);
      assert.equal(
        readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[16],
        '0',
        'the main thread keeps nice 0',
      );
    },
  );
});
