import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { assertNoProblems, type UiTab } from './ui-browser.js';
import { heading, ROOT, startUiDev, type UiDev } from './ui-dev.testing.js';

// Issue 34: the Access section's deletes (each asked twice) and nested groups, in Debian's Chromium
// against a dev bin/ward (split from ui-access.test.ts, which keeps the rest of the section).

describe('web UI access section: deletes and nested groups', () => {
  let ui: UiDev;
  let tab: UiTab;
  const found: string[] = [];

  before(async () => {
    ui = await startUiDev();
    await ui.api('POST', 'sys/auth/userpass', { type: 'userpass' });
    await ui.api('POST', 'auth/userpass/users/alice', { password: 's3cret-pass' });
    tab = await ui.signedIn();
  });
  after(async () => {
    await tab?.context.close();
    await ui?.stop();
  });

  /** A request whose answer is read whatever its status. */
  const api = (method: string, path: string, body?: unknown) =>
    request(ui.dev.url, method, path, { token: ROOT, body });
  const ok = (method: string, path: string, body?: unknown) => ui.api(method, path, body);

  it('deletes a userpass user, an AppRole role, an entity alias and a group alias, each asked twice', async () => {
    const { page } = tab;
    await ok('POST', 'auth/userpass/users/bob', { password: 'bob-pass-1' });
    await page.goto('/ui/access/auth/userpass');
    await page.getByRole('button', { name: 'Delete bob' }).click();
    await page.getByRole('button', { name: 'Delete bob now' }).click();
    await page.getByRole('list', { name: 'Users' }).getByText('alice', { exact: true }).waitFor();
    await page.getByText('bob', { exact: true }).waitFor({ state: 'detached' });
    assert.equal((await api('GET', 'auth/userpass/users/bob')).status, 404);

    await ok('POST', 'sys/auth/robots2', { type: 'approle' });
    await ok('POST', 'auth/robots2/role/ci', { token_policies: ['deploy'] });
    await ok('POST', 'auth/robots2/role/nightly', {});
    await page.goto('/ui/access/auth/robots2');
    await page.getByRole('button', { name: 'Delete ci' }).click();
    found.push(...(await tab.capture('access-auth-approle-delete')));
    await page.getByRole('button', { name: 'Delete ci now' }).click();
    await page.getByRole('button', { name: 'Delete ci' }).waitFor({ state: 'detached' });
    assert.deepEqual((await ok('LIST', 'auth/robots2/role')).data.keys, ['nightly']);

    const accessor = (await ok('GET', 'sys/auth')).data['userpass/'].accessor;
    const frank = (await ok('POST', 'identity/entity', { name: 'frank' })).data.id;
    const alias = (
      await ok('POST', 'identity/entity-alias', { name: 'frank', canonical_id: frank, mount_accessor: accessor })
    ).data.id;
    await page.goto(`/ui/access/entities/${frank}`);
    await page.getByRole('button', { name: 'Delete alias frank' }).click();
    await page.getByRole('button', { name: 'Delete alias frank now' }).click();
    await page.getByText('No aliases.').waitFor();
    assert.equal((await api('GET', `identity/entity-alias/id/${alias}`)).status, 404);

    const ext = (await ok('POST', 'identity/group', { name: 'ext-2', type: 'external' })).data.id;
    const groupAlias = (
      await ok('POST', 'identity/group-alias', { name: 'ops2', canonical_id: ext, mount_accessor: accessor })
    ).data.id;
    await page.goto(`/ui/access/groups/${ext}`);
    await page.getByRole('button', { name: 'Delete alias' }).click();
    await page.getByRole('button', { name: 'Delete alias now' }).click();
    await page.getByText('No alias yet', { exact: false }).waitFor();
    assert.equal((await api('GET', `identity/group-alias/id/${groupAlias}`)).status, 404);
    assert.equal((await api('GET', `identity/group/id/${ext}`)).status, 200);
  });

  it('shows nested groups, adds and removes a member group, and shows the server refusing a cycle', async () => {
    const { page } = tab;
    const make = async (name: string) => (await ok('POST', 'identity/group', { name })).data.id as string;
    const [parent, child] = [await make('platform'), await make('platform-oncall')];
    await page.goto(`/ui/access/groups/${parent}`);
    await page.getByText('No member groups.').waitFor();
    await page.getByLabel('Group to add').selectOption({ label: 'platform-oncall' });
    await page.getByRole('button', { name: 'Add member group' }).click();
    await page.getByRole('list', { name: 'Member groups' }).getByRole('link', { name: 'platform-oncall' }).waitFor();
    found.push(...(await tab.capture('access-group-nested')));
    assert.deepEqual((await ok('GET', `identity/group/id/${parent}`)).data.member_group_ids, [child]);

    await page.getByRole('list', { name: 'Member groups' }).getByRole('link', { name: 'platform-oncall' }).click();
    await heading(page, 'platform-oncall');
    await page.getByRole('list', { name: 'Parent groups' }).getByRole('link', { name: 'platform' }).waitFor();
    await page.getByLabel('Group to add').selectOption({ label: 'platform' });
    await page.getByRole('button', { name: 'Add member group' }).click();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /would create a cycle/);
    assert.deepEqual((await ok('GET', `identity/group/id/${child}`)).data.member_group_ids, null);

    await page.getByRole('list', { name: 'Parent groups' }).getByRole('link', { name: 'platform' }).click();
    await heading(page, 'platform');
    await page.getByRole('button', { name: 'Remove platform-oncall' }).click();
    await page.getByRole('button', { name: 'Remove platform-oncall now' }).click();
    await page.getByText('No member groups.').waitFor();
    assert.deepEqual((await ok('GET', `identity/group/id/${parent}`)).data.member_group_ids, null);
  });

  it('had no console errors, CSP refusals, sideways scrolling or axe findings', () => {
    assertNoProblems([...found, ...tab.problems()]);
  });
});
