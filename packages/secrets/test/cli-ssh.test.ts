import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { run, Sshd } from './sshd.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward ssh` as established, through bin/ward against bin/ward server -dev: -mode=ca logs in to
// a real OpenSSH sshd that trusts the engine's CA; -mode=otp runs the `sshpass` (a stub script
// on PATH, a real process) with the password, and revokes it once ssh succeeds.

const EXTENSIONS = 'permit-pty,permit-X11-forwarding,permit-agent-forwarding,permit-port-forwarding,permit-user-rc';
const SSH_DIR = dirname((await run('which', ['ssh'])).stdout.trim());

describe('ward ssh (bin/ward against bin/ward server and a real sshd)', () => {
  let dev: DevWard;
  let sshd: Sshd;
  const user = Sshd.user;
  const ward = (args: string[], env: Record<string, string> = {}) => runWard(args, { ...dev.env, ...env });
  const ok = async (...args: string[]) => {
    const run = await ward(args);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };
  /** ssh options that keep the user's own configuration and agent out of the test. */
  const sshOptions = (port = sshd.port) => [
    '-p',
    String(port),
    '-F',
    '/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'IdentitiesOnly=yes',
  ];
  const caFlags = ['-mode=ca', '-role=dev', '-strict-host-key-checking=no', '-user-known-hosts-file=/dev/null'];

  before(async () => {
    dev = await startDevWard('root');
    await ok('secrets', 'enable', 'ssh');
    await ok('write', 'ssh/config/ca', 'generate_signing_key=true');
    await ok(
      'write',
      'ssh/roles/dev',
      'key_type=ca',
      'allow_user_certificates=true',
      `allowed_users=${user}`,
      `allowed_extensions=${EXTENSIONS}`,
      'ttl=10m',
    );
    await ok('write', 'ssh/roles/otp', 'key_type=otp', `default_user=${user}`, 'cidr_list=127.0.0.0/8');
    sshd = await Sshd.start((await ok('read', '-field=public_key', 'ssh/config/ca')).trim());
    await mkdir(join(dev.env.HOME ?? '', '.ssh'), { mode: 0o700 });
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dev.env.HOME ?? '', '.ssh', 'id_ed25519')]);
  });
  after(async () => {
    await sshd?.stop();
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('-mode=ca signs ~/.ssh/id_ed25519.pub and logs in to sshd with the certificate', async () => {
    const login = await ward(['ssh', ...caFlags, `${user}@127.0.0.1`, ...sshOptions(), 'echo', 'logged-in']);
    assert.equal(login.code, 0, `${login.stderr}\n${sshd.output()}`);
    assert.equal(login.stdout.trim(), 'logged-in');
  });

  it("-mode=ca passes ssh's exit status through, and a principal the role refuses is the server's error", async () => {
    const failed = await ward(['ssh', ...caFlags, `${user}@127.0.0.1`, ...sshOptions(), 'exit', '3']);
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /failed to run ssh command: exit status 3/);
    const refused = await ward(['ssh', ...caFlags, '-valid-principals=nobody', `${user}@127.0.0.1`, ...sshOptions()]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Code: 400/);
  });

  it('-mode=ca -no-exec prints the signed key (JSON, -field) without connecting', async () => {
    const json = await ward(['ssh', '-mode=ca', '-role=dev', '-no-exec', '-format=json', `${user}@127.0.0.1`]);
    assert.equal(json.code, 0, json.stderr);
    assert.match(JSON.parse(json.stdout).data.signed_key, /^ssh-ed25519-cert-v01@openssh\.com /);
    const field = await ward(['ssh', '-mode=ca', '-role=dev', '-no-exec', '-field=signed_key', `${user}@127.0.0.1`]);
    assert.match(field.stdout, /^ssh-ed25519-cert-v01@openssh\.com \S+/);
  });

  it('refuses a missing role, mode, host or key pair before sending', async () => {
    for (const args of [
      ['-mode=ca', 'host'],
      ['-role=dev', 'host'],
      ['-mode=ca', '-role=dev'],
      ['-mode=bogus', '-role=dev', 'host'],
    ]) {
      const run = await ward(['ssh', ...args]);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /^Error: /);
    }
    const noKey = await ward(['ssh', '-mode=ca', '-role=dev', 'host'], {
      HOME: await mkdtemp(join(tmpdir(), 'ward-nokey-')),
    });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /could not find an SSH public key/);
  });

  it('-host-key-mount-point trusts the host through that mount CA, strictly', async () => {
    await ok('secrets', 'enable', '-path=ssh-host', 'ssh');
    await ok('write', 'ssh-host/config/ca', 'generate_signing_key=true');
    await ok(
      'write',
      'ssh-host/roles/host',
      'key_type=ca',
      'allow_host_certificates=true',
      'allowed_domains=127.0.0.1',
      'allow_bare_domains=true',
    );
    const userCa = (await ok('read', '-field=public_key', 'ssh/config/ca')).trim();
    const hostSshd = await Sshd.start(userCa, async (hostKey) => {
      const keyFile = join(dev.env.HOME ?? '', 'host_key.pub');
      await writeFile(keyFile, hostKey);
      return ok(
        'write',
        '-field=signed_key',
        'ssh-host/sign/host',
        `public_key=@${keyFile}`,
        'cert_type=host',
        'valid_principals=127.0.0.1',
      );
    });
    try {
      const options = sshOptions(hostSshd.port);
      const trusted = await ward([
        'ssh',
        '-mode=ca',
        '-role=dev',
        '-host-key-mount-point=ssh-host',
        `${user}@127.0.0.1`,
        ...options,
        'echo',
        'host-trusted',
      ]);
      assert.equal(trusted.code, 0, `${trusted.stderr}\n${hostSshd.output()}`);
      assert.equal(trusted.stdout.trim(), 'host-trusted');
      // The user CA did not sign the host key: strict checking refuses the host.
      const untrusted = await ward([
        'ssh',
        '-mode=ca',
        '-role=dev',
        '-host-key-mount-point=ssh',
        '-strict-host-key-checking=no',
        `${user}@127.0.0.1`,
        ...options,
        'true',
      ]);
      assert.equal(untrusted.code, 255, untrusted.stderr);
      assert.match(untrusted.stderr, /Host key verification failed/);
    } finally {
      await hostSshd.stop();
    }
  });

  describe('-mode=otp', () => {
    let bin: string;
    let record: string;
    before(async () => {
      bin = await mkdtemp(join(tmpdir(), 'ward-sshpass-'));
      record = join(bin, 'record');
      // A stand-in for sshpass: records what it was given, exits with $STUB_STATUS.
      await writeFile(
        join(bin, 'sshpass'),
        `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}.args"\nprintf '%s' "$SSHPASS" > "${record}.pass"\nexit "\${STUB_STATUS:-0}"\n`,
        { mode: 0o755 },
      );
    });
    const verify = (otp: string) => ward(['write', '-format=json', 'ssh/verify', `otp=${otp}`]);

    it('runs ssh through sshpass with the password, and revokes it once ssh succeeds', async () => {
      const run = await ward(
        [
          'ssh',
          '-mode=otp',
          '-role=otp',
          '-strict-host-key-checking=yes',
          '-user-known-hosts-file=/dev/null',
          `${user}@localhost`,
          'uptime',
        ],
        {
          PATH: `${bin}:${SSH_DIR}:/usr/bin:/bin`,
        },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((await readFile(`${record}.args`, 'utf8')).trimEnd().split('\n'), [
        '-e',
        'ssh',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-p',
        '22',
        '-o',
        'StrictHostKeyChecking=yes',
        `${user}@localhost`,
        'uptime',
      ]);
      const otp = await readFile(`${record}.pass`, 'utf8');
      assert.match(otp, /^[0-9a-f-]{36}$/);
      const revoked = await verify(otp);
      assert.equal(revoked.code, 2, 'revoked once ssh succeeded');
    });

    it('keeps the password when ssh fails, and passes the status through', async () => {
      const run = await ward(['ssh', '-mode=otp', '-role=otp', '127.0.0.1', '-p', '2222'], {
        PATH: `${bin}:${SSH_DIR}:/usr/bin:/bin`,
        STUB_STATUS: '5',
      });
      assert.equal(run.code, 5);
      const args = (await readFile(`${record}.args`, 'utf8')).trimEnd().split('\n');
      assert.deepEqual(args, ['-e', 'ssh', '-o', 'StrictHostKeyChecking=ask', '127.0.0.1', '-p', '2222']);
      const verified = await verify(await readFile(`${record}.pass`, 'utf8'));
      assert.equal(verified.code, 0, verified.stderr);
      assert.equal(JSON.parse(verified.stdout).data.username, user);
      assert.equal(JSON.parse(verified.stdout).data.ip, '127.0.0.1');
    });

    it('without sshpass, prints the password and runs ssh itself; -no-exec prints the credential', async () => {
      const ssh = join(bin, 'fake-ssh');
      await writeFile(ssh, `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}.ssh"\n`, { mode: 0o755 });
      const run = await ward(['ssh', '-mode=otp', '-role=otp', `-ssh-executable=${ssh}`, '127.0.0.1'], {
        PATH: '/usr/bin:/bin',
      });
      assert.equal(run.code, 0, run.stderr);
      const [, otp = ''] = /^OTP for the session is: (\S+)$/m.exec(run.stdout) ?? [];
      assert.match(otp, /^[0-9a-f-]{36}$/);
      assert.deepEqual((await readFile(`${record}.ssh`, 'utf8')).trimEnd().split('\n'), [
        '-p',
        '22',
        '-o',
        'StrictHostKeyChecking=ask',
        '127.0.0.1',
      ]);
      const noExec = await ward(['ssh', '-mode=otp', '-role=otp', '-no-exec', '-format=json', '127.0.0.1']);
      assert.equal(noExec.code, 0, noExec.stderr);
      const cred = JSON.parse(noExec.stdout);
      assert.equal(cred.data.key_type, 'otp');
      assert.ok(cred.lease_id);
    });
  });
});
