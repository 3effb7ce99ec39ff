import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { CliError, type CommandContext } from './command.js';
import { runSsh, type SshSettings } from './ssh-run.js';

/**
 * `ward ssh -mode=otp`: `MOUNT/creds/ROLE` issues a one-time password for the user at the host's
 * address. With `sshpass` on PATH, ssh runs through it (`sshpass -e`, the password in SSHPASS);
 * without, the password is printed to be typed at ssh's prompt. Once ssh succeeds the lease is
 * revoked, as established.
 */
export async function sshWithOtp(ctx: CommandContext, s: SshSettings): Promise<number> {
  const secret = await ctx.client.write(`${s.mount}/creds/${s.role}`, { username: s.username, ip: s.ip });
  const key = secret?.data?.key;
  if (typeof key !== 'string' || key === '') throw new CliError('the server returned no one-time password', 2);
  if (s.noExec) {
    if (secret) ctx.out.secret(secret);
    return 0;
  }
  const sshpass = await findOnPath('sshpass', ctx.env.PATH ?? '');
  const args: string[] = [];
  const extraEnv: Record<string, string> = {};
  if (sshpass) {
    args.push('-e', s.sshExecutable);
    extraEnv.SSHPASS = key;
  } else {
    ctx.out.note(
      'Ward could not find "sshpass": type the one-time password below at the ssh password prompt ' +
        '(with sshpass installed, Ward does this for you).',
    );
    ctx.out.note(`OTP for the session is: ${key}`);
  }
  if (s.userKnownHostsFile) args.push('-o', `UserKnownHostsFile=${s.userKnownHostsFile}`);
  if (s.port === '') args.push('-p', String(secret?.data?.port ?? '22'));
  args.push('-o', `StrictHostKeyChecking=${s.strictHostKeyChecking}`, ...s.sshArgs);
  await runSsh(ctx, sshpass ?? s.sshExecutable, args, extraEnv);
  await ctx.client.write('sys/leases/revoke', { lease_id: secret?.lease_id ?? '' });
  return 0;
}

async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}
