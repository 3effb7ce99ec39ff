import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 5: the real hvac client (Debian's python3-hvac) logs in through userpass and manages
// entities. The script prints what it saw as JSON; the assertions live here.

const PYTHON = '/usr/bin/python3';
// Async on purpose: the server runs in this process, so a blocking spawn would starve it.
const run = promisify(execFile);

const SCRIPT = `
import json, sys, hvac
url, root = sys.argv[1], sys.argv[2]
admin = hvac.Client(url=url, token=root)
out = {}
admin.sys.enable_auth_method('userpass')
admin.auth.userpass.create_or_update_user('Alice', password='s3cret', policies='dev')
out['read_user'] = admin.auth.userpass.read_user('alice')['data']
out['list_user'] = admin.auth.userpass.list_user()['data']['keys']
user = hvac.Client(url=url)
login = user.auth.userpass.login('alice', 's3cret')
out['login_auth'] = login['auth']
out['authenticated'] = user.is_authenticated()
out['self'] = user.auth.token.lookup_self()['data']
try:
    hvac.Client(url=url).auth.userpass.login('alice', 'wrong')
    out['wrong'] = 'accepted'
except hvac.exceptions.Forbidden as e:
    out['wrong'] = 'forbidden'
entity_id = login['auth']['entity_id']
out['entity'] = admin.secrets.identity.read_entity(entity_id)['data']
created = admin.secrets.identity.create_or_update_entity(name='svc', policies=['p1'], metadata={'team': 'x'})
out['created'] = created['data']
out['by_name'] = admin.secrets.identity.read_entity_by_name('svc')['data']
out['list'] = admin.secrets.identity.list_entities()['data']
group = admin.secrets.identity.create_or_update_group(name='ops', policies=['ops'], member_entity_ids=[entity_id])
out['group'] = group['data']
merge = admin.secrets.identity.merge_entities(from_entity_ids=[created['data']['id']], to_entity_id=entity_id)
out['merge_status'] = merge.status_code
out['merged'] = admin.secrets.identity.read_entity(entity_id)['data']
out['renewed'] = user.auth.token.renew_self()['auth']['lease_duration']
print(json.dumps(out))
`;

describe('hvac (python3-hvac) with userpass and the identity store', () => {
  let t: TestServer | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the script's JSON output
  let seen: any;

  before(async () => {
    t = await startTestServer();
    const { stdout } = await run(PYTHON, ['-c', SCRIPT, t.url, t.rootToken], { timeout: 60_000 });
    seen = JSON.parse(stdout);
  });
  after(() => t?.stop());

  it('creates, reads and lists users (names lower-cased)', () => {
    assert.deepEqual(seen.read_user.policies, ['dev']);
    assert.deepEqual(seen.list_user, ['alice']);
  });

  it('logs in, gets a working token bound to an entity, and is refused with a wrong password', () => {
    assert.equal(seen.authenticated, true);
    assert.deepEqual(seen.login_auth.policies, ['default', 'dev']);
    assert.deepEqual(seen.login_auth.metadata, { username: 'alice' });
    assert.equal(seen.self.display_name, 'userpass-alice');
    assert.equal(seen.self.entity_id, seen.login_auth.entity_id);
    assert.equal(seen.wrong, 'forbidden');
    assert.equal(seen.entity.aliases[0].name, 'alice');
    assert.equal(seen.renewed, 2764800);
  });

  it('manages entities, groups and a merge', () => {
    assert.equal(seen.created.aliases, null);
    assert.deepEqual(seen.by_name.metadata, { team: 'x' });
    assert.equal(seen.list.keys.length, 2);
    assert.match(seen.group.id, /^[0-9a-f-]{36}$/);
    assert.equal(seen.merge_status, 204);
    assert.deepEqual(seen.merged.merged_entity_ids, [seen.created.id]);
    assert.deepEqual(seen.merged.direct_group_ids, [seen.group.id]);
  });
});
