import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testBackend } from '../../framework/testing.js';
import { NotFoundError } from '../../logical/errors.js';
import { createGitHubBackend } from './backend.js';

// GitHub's policy maps beside their code (issue 30 point 6); config and logins, which ask GitHub,
// are tested against the GitHub fake over HTTP in test/auth-github.test.ts.

describe('github map paths', () => {
  it('maps teams and users to policies; an unmapped name reads as data null, as established', async () => {
    const t = await testBackend(createGitHubBackend);
    await t.write('map/teams/Site Reliability', { value: 'sre' });
    await t.write('map/teams/readers', { value: 'read, ' });
    await t.write('map/teams/devs', { value: 'dev' });
    await t.write('map/users/alice', { value: 'alice-own' });
    assert.deepEqual((await t.read('map/teams/site reliability'))?.data, { key: 'site reliability', value: 'sre' });
    assert.deepEqual((await t.read('map/teams/readers'))?.data, { key: 'readers', value: 'read' });
    const unmapped = await t.read('map/users/nobody');
    assert.equal(unmapped?.raw?.status, 200);
    assert.equal((unmapped?.raw?.body as { data: unknown }).data, null);
    assert.deepEqual((await t.list('map/teams'))?.data?.keys, ['devs', 'readers', 'site reliability']);
    assert.deepEqual((await t.list('map/users'))?.data?.keys, ['alice']);
  });

  it('deletes a mapping; the last one gone, the list is a 404', async () => {
    const t = await testBackend(createGitHubBackend);
    await t.write('map/users/Bob', { value: 'b' });
    await t.delete('map/users/BOB');
    assert.equal(((await t.read('map/users/bob'))?.raw?.body as { data: unknown }).data, null);
    await assert.rejects(t.list('map/users'), NotFoundError);
  });
});
