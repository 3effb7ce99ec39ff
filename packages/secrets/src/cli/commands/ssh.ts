import { lookup } from 'node:dns/promises';
import { userInfo } from 'node:os';
import { CliError, defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { sshWithCertificate } from '../ssh-ca.js';
import { sshWithOtp } from '../ssh-otp.js';
import type { SshSettings } from '../ssh-run.js';
import { findKeyPair, parseSshTarget } from '../ssh-target.js';

/**
 * `ward ssh -mode=ca|otp -role=ROLE [options] [user@]host [ssh arguments…]`, as established:
 * `ca` signs the user's public key and runs ssh with the certificate; `otp` asks for a one-time
 * password and runs ssh through `sshpass` when it is on PATH (else prints the password), revoking
 * it once ssh succeeds. `-no-exec` prints the credentials instead. ssh's exit status is ward's.
 */
export const sshCommand = defineCommand({
  name: 'ssh',
  summary: 'Connect to a host over SSH with a signed key (ca) or a one-time password (otp).',
  usage: '[user@]host [ssh arguments ...]',
  example: 'ward ssh -mode=ca -role=dev alice@10.0.0.5',
  description:
    'Options for ssh itself go after the host (or after --). Variables: VAULT_SSH_STRICT_HOST_KEY_CHECKING,\n' +
    'VAULT_SSH_USER_KNOWN_HOSTS_FILE, VAULT_SSH_HOST_KEY_MOUNT_POINT, VAULT_SSH_HOST_KEY_HOSTNAMES,\n' +
    'VAULT_SSH_EXECUTABLE. The dynamic mode is not in Ward (its ssh engine has no dynamic keys).',
  flags: {
    mode: flag.string('Authentication mode: ca or otp.'),
    role: flag.string('Role of the SSH engine to use.'),
    'no-exec': flag.bool('Print the credentials instead of connecting.'),
    'mount-point': flag.string('Mount of the SSH engine.', 'ssh/'),
    'strict-host-key-checking': flag.string('ssh option StrictHostKeyChecking: ask, yes or no (default ask).'),
    'user-known-hosts-file': flag.string('ssh option UserKnownHostsFile.'),
    'public-key-path': flag.string('Public key to sign (ca; default ~/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub).'),
    'private-key-path': flag.string('Its private key (ca; default the public key path without .pub).'),
    'host-key-mount-point': flag.string('SSH mount whose CA signs host keys: trust it (ca; forces strict checking).'),
    'host-key-hostnames': flag.string('Hostnames the host CA is trusted for, comma-separated (default *).'),
    'valid-principals': flag.string('Principals of the certificate, comma-separated (ca; default the user).'),
    'ssh-executable': flag.string('The ssh program to run (default ssh).'),
  },
  args: { min: 0 },
  async run({ flags, args }, ctx) {
    const mode = (flags.mode ?? '').toLowerCase();
    const env = ctx.env;
    const home = env.HOME ?? '';
    // As established, the key pair is looked for first: a missing key is the first thing said.
    const keys =
      mode === 'ca' ? await findKeyPair(home, flags['public-key-path'], flags['private-key-path']) : undefined;
    if (args.length < 1) throw new UsageError('the [user@]host to connect to is required');
    const target = parseSshTarget(args);
    if (!flags.role) throw new UsageError('no -role given: -role names the ssh role to use');
    if (!mode) throw new UsageError('no -mode given: -mode=ca or -mode=otp');
    const settings: SshSettings = {
      mount: flags['mount-point'].replace(/\/+$/, ''),
      role: flags.role,
      username: target.username || userInfo().username,
      ip: await resolve(target.hostname),
      port: target.port,
      noExec: flags['no-exec'],
      strictHostKeyChecking: flags['strict-host-key-checking'] ?? (env.VAULT_SSH_STRICT_HOST_KEY_CHECKING || 'ask'),
      userKnownHostsFile: flags['user-known-hosts-file'] ?? env.VAULT_SSH_USER_KNOWN_HOSTS_FILE ?? '',
      sshExecutable: flags['ssh-executable'] ?? (env.VAULT_SSH_EXECUTABLE || 'ssh'),
      sshArgs: args,
    };
    if (keys) {
      return sshWithCertificate(ctx, settings, {
        home,
        keys,
        validPrincipals: flags['valid-principals'] ?? '',
        hostKeyMount: flags['host-key-mount-point'] ?? env.VAULT_SSH_HOST_KEY_MOUNT_POINT ?? '',
        hostKeyHostnames: flags['host-key-hostnames'] ?? (env.VAULT_SSH_HOST_KEY_HOSTNAMES || '*'),
      });
    }
    if (mode === 'otp') return sshWithOtp(ctx, settings);
    if (mode === 'dynamic') throw new UsageError('-mode=dynamic is not in Ward: its ssh engine has no dynamic keys');
    throw new UsageError(`unknown SSH mode: ${flags.mode}`);
  },
});

async function resolve(hostname: string): Promise<string> {
  try {
    return (await lookup(hostname)).address;
  } catch (err) {
    throw new CliError(`cannot resolve the ssh hostname ${hostname}: ${(err as Error).message}`, 2);
  }
}
