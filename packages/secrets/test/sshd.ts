import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../src/server/testing.js';

export const run = promisify(execFile);

/** Debian's `openssh-server` installs sshd here; it must be started by its absolute path. */
const SSHD = '/usr/sbin/sshd';

/**
 * A throw-away OpenSSH server on a free loopback port with its config and host key in a temp dir:
 * only public-key logins, by certificates of the CA in `caPublicKey` (`TrustedUserCAKeys`),
 * the certificate's principals naming the user. `stop` kills it and removes the dir.
 */
export class Sshd {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly child: ChildProcess,
    private readonly log: () => string,
  ) {}

  /** The user tests log in as: whoever runs them. */
  static get user(): string {
    return userInfo().username;
  }

  /**
   * `signHostKey`, when given, turns the host's public key into a host certificate, which sshd
   * then presents (`HostCertificate`), so clients may trust the host through its CA.
   */
  static async start(caPublicKey: string, signHostKey?: (hostPublicKey: string) => Promise<string>): Promise<Sshd> {
    const dir = await mkdtemp(join(tmpdir(), 'ward-sshd-'));
    await chmod(dir, 0o700);
    // sshd's privilege separation needs this directory when it runs as root.
    if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    const hostCertificate = signHostKey
      ? await signHostKey(await readFile(join(dir, 'host_key.pub'), 'utf8'))
      : undefined;
    if (hostCertificate) await writeFile(join(dir, 'host_key-cert.pub'), hostCertificate);
    await writeFile(join(dir, 'ca.pub'), caPublicKey);
    const port = await freePort();
    const config = [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      ...(hostCertificate ? [`HostCertificate ${join(dir, 'host_key-cert.pub')}`] : []),
      `PidFile ${join(dir, 'sshd.pid')}`,
      `TrustedUserCAKeys ${join(dir, 'ca.pub')}`,
      'AuthorizedKeysFile none',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitRootLogin yes',
      'StrictModes no',
      'LogLevel VERBOSE',
    ];
    await writeFile(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
    const child = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stderr?.on('data', (b: Buffer) => {
      text += b.toString();
    });
    const sshd = new Sshd(port, dir, child, () => text);
    await sshd.#waitUntilListening();
    return sshd;
  }

  /** Everything sshd logged. */
  output(): string {
    return this.log();
  }

  /**
   * Runs `command` over ssh as `user` with the private key at `keyPath` and its certificate at
   * `certPath`; resolves with the exit code and output (code 255: the login was refused).
   */
  async login(
    user: string,
    keyPath: string,
    certPath: string,
    command = 'echo logged-in',
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const args = [
      '-F',
      '/dev/null',
      '-i',
      keyPath,
      '-o',
      `CertificateFile=${certPath}`,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
      '-p',
      String(this.port),
      `${user}@127.0.0.1`,
      command,
    ];
    try {
      const { stdout, stderr } = await run('ssh', args, { timeout: 20_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGTERM');
      });
    }
    await rm(this.dir, { recursive: true, force: true });
  }

  async #waitUntilListening(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`sshd exited with ${this.child.exitCode}: ${this.log()}`);
      const isUp = await new Promise<boolean>((resolve) => {
        const socket = connect(this.port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (isUp) return;
      if (Date.now() > deadline) throw new Error(`sshd did not listen: ${this.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
