import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock, type LogFields, type Logger, SeededRandom } from '@ward/base';
import { createClient } from '@ward/secrets-client';
import { freePort, startTestServer, type TestServer } from '../server/testing.js';
import { createAuthMethod } from './auth-method.js';
import { AutoAuth } from './auto-auth.js';
import { createFileSink } from './file-sink.js';

/** A logger that keeps every entry, so a test can wait for what the code reports. */
function recordingLogger(): Logger & { entries: Array<{ msg: string; fields: LogFields }> } {
  const entries: Array<{ msg: string; fields: LogFields }> = [];
  const log = (msg: string, fields: LogFields = {}) => entries.push({ msg, fields });
  const logger = { entries, trace: log, debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

/** Waits until `condition` holds: the proxy's own requests to the server are real and take their time. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`never happened: ${what}`);
}

async function addUser(t: TestServer, ttl: string): Promise<void> {
  await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
  await t.request('POST', 'auth/userpass/users/app', { body: { password: 'pw', token_ttl: ttl, token_max_ttl: '1h' } });
}

describe('AutoAuth (userpass, file sink)', () => {
  let dir: string;
  let passwordFile: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-auto-auth-'));
    passwordFile = join(dir, 'password');
    await writeFile(passwordFile, 'pw\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const makeAutoAuth = (url: string, sink: string) => {
    const clock = new FakeClock(Date.now());
    const logger = recordingLogger();
    const auth = new AutoAuth({
      client: createClient({ address: url }),
      method: createAuthMethod({
        type: 'userpass',
        mountPath: 'auth/userpass',
        username: 'app',
        passwordFilePath: passwordFile,
      }),
      sinks: [createFileSink({ path: sink, mode: 0o600 })],
      clock,
      random: new SeededRandom(1),
      logger,
    });
    const has = (msg: string) => logger.entries.some((e) => e.msg === msg);
    const count = (msg: string) => logger.entries.filter((e) => e.msg === msg).length;
    return { auth, clock, logger, has, count };
  };

  it('logs in, writes the token to the sink with its mode, and renews it at 2/3 of its TTL', async () => {
    const t = await startTestServer();
    await addUser(t, '60s');
    const sink = join(dir, 'token-renew');
    const { auth, clock, has, count } = makeAutoAuth(t.url, sink);
    try {
      auth.start();
      const token = await auth.firstToken();
      assert.equal(await readFile(sink, 'utf8'), token);
      assert.equal((await stat(sink)).mode & 0o777, 0o600);
      assert.equal((await t.request('GET', 'auth/token/lookup-self', { token })).status, 200);

      clock.advance(39_999);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(has('auto-auth: token renewed'), false, 'not before 2/3 of 60 s');
      clock.advance(1);
      await until(() => has('auto-auth: token renewed'), 'renewal at 40 s');
      assert.equal(auth.token, token, 'a renewal keeps the token');
      clock.advance(40_000);
      await until(() => count('auto-auth: token renewed') === 2, 'the next renewal 40 s later');
    } finally {
      auth.stop();
      await t.stop();
    }
  });

  it('retries with growing backoff while the server is unreachable, then logs in', async () => {
    const port = await freePort();
    const sink = join(dir, 'token-backoff');
    const { auth, clock, logger } = makeAutoAuth(`http://127.0.0.1:${port}`, sink);
    const waits = () =>
      logger.entries.filter((e) => e.msg === 'auto-auth login failed; retrying').map((e) => e.fields.waitMs as number);
    let t: TestServer | undefined;
    try {
      auth.start();
      await until(() => waits().length === 1, 'the first failed login');
      const [first = 0] = waits();
      assert.ok(first >= 750 && first <= 1000, `first wait ${first} ms: 1 s less up to a quarter`);
      clock.advance(first - 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(waits().length, 1, 'no attempt before the wait is over');
      clock.advance(1);
      await until(() => waits().length === 2, 'the second failed login');
      const second = waits()[1] ?? 0;
      assert.ok(second >= 1500 && second <= 2000, `second wait ${second} ms: doubled`);

      t = await startTestServer({ listener: { address: `127.0.0.1:${port}` } });
      await addUser(t, '1h');
      clock.advance(second);
      const token = await auth.firstToken();
      assert.equal(await readFile(sink, 'utf8'), token);
    } finally {
      auth.stop();
      await t?.stop();
    }
  });

  it('logs in again when its token is revoked, but not when a request is refused by policy', async () => {
    const t = await startTestServer();
    await addUser(t, '1h');
    const sink = join(dir, 'token-revoked');
    const { auth, clock } = makeAutoAuth(t.url, sink);
    try {
      auth.start();
      const first = await auth.firstToken();
      await Promise.all([auth.reportRejected(first), auth.reportRejected(first)]);
      assert.equal(auth.token, first, 'a policy refusal leaves a valid token alone');

      assert.equal((await t.request('POST', 'auth/token/revoke', { body: { token: first } })).status, 204);
      await auth.reportRejected(first);
      assert.equal(auth.token, first, 'a token found valid is not checked again within a second');
      clock.advance(1_000);
      await auth.reportRejected(first);
      const second = auth.token;
      assert.ok(second && second !== first, 'a new token once the old one is gone');
      assert.equal(await readFile(sink, 'utf8'), second);
      assert.equal((await t.request('GET', 'auth/token/lookup-self', { token: second })).status, 200);
    } finally {
      auth.stop();
      await t.stop();
    }
  });

  it('logs in again when a renewal fails', async () => {
    const t = await startTestServer();
    await addUser(t, '60s');
    const { auth, clock, has } = makeAutoAuth(t.url, join(dir, 'token-renew-fails'));
    try {
      auth.start();
      const first = await auth.firstToken();
      await t.request('POST', 'auth/token/revoke', { body: { token: first } });
      clock.advance(40_000);
      await until(() => has('auto-auth: renewal failed; logging in again'), 'the failed renewal');
      await until(() => auth.token !== first, 'a new login');
    } finally {
      auth.stop();
      await t.stop();
    }
  });
});
