import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness, WARD_BIN } from '../src/cli/testing.js';

/**
 * Runs `ward args` on a pseudo-terminal (util-linux `script`), answers the first prompt that
 * matches `prompt` with `answer` and Enter, and resolves with everything the terminal showed.
 */
function wardOnTerminal(args: string[], env: Record<string, string>, prompt: RegExp, answer: string): Promise<string> {
  const command = [process.execPath, WARD_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let isAnswered = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no prompt matching ${prompt}; the terminal showed:\n${screen}`));
    }, 30_000);
    const onData = (d: Buffer) => {
      screen += d.toString();
      if (!isAnswered && prompt.test(screen)) {
        isAnswered = true;
        child.stdin.write(`${answer}\r`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(screen);
    });
  });
}

// Issue 21, point 3: secrets are asked for without echo on a terminal, and read as one line otherwise.
describe('ward prompts for secrets', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
    assert.equal((await cli.server.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    const user = await cli.server.request('POST', 'auth/userpass/users/alice', { body: { password: 'pw-of-alice' } });
    assert.equal(user.status, 204);
  });
  after(() => cli.stop());

  it('operator unseal with no key asks for it without echo', async () => {
    await cli.server.request('PUT', 'sys/seal');
    const screen = await wardOnTerminal(
      ['operator', 'unseal'],
      cli.env,
      /Unseal Key \(will be hidden\): /,
      cli.server.unsealKey,
    );
    assert.match(screen, /Sealed\s+false/);
    assert.equal(screen.includes(cli.server.unsealKey), false, 'the key was echoed');
  });

  it('login -method=userpass without password= asks for it without echo', async () => {
    const screen = await wardOnTerminal(
      ['login', '-method=userpass', '-no-store', 'username=alice'],
      cli.env,
      /Password \(will be hidden\): /,
      'pw-of-alice',
    );
    assert.match(screen, /Success! You are now authenticated/);
    assert.equal(screen.includes('pw-of-alice'), false, 'the password was echoed');
  });

  it('login with no token asks for it', async () => {
    const screen = await wardOnTerminal(
      ['login', '-no-store'],
      cli.env,
      /Token \(will be hidden\): /,
      cli.server.rootToken,
    );
    assert.match(screen, /Success! You are now authenticated/);
  });

  it('reads one line of stdin when it is not a terminal', async () => {
    await cli.server.request('PUT', 'sys/seal');
    const unseal = await runWardInProcess(['operator', 'unseal'], cli.env, `${cli.server.unsealKey}\nignored\n`);
    assert.equal(unseal.code, 0, unseal.stderr);
    assert.match(unseal.stdout, /Sealed\s+false/);
    const login = await runWardInProcess(
      ['login', '-method=userpass', '-no-store', 'username=alice'],
      cli.env,
      'pw-of-alice\n',
    );
    assert.equal(login.code, 0, login.stderr);
  });
});
