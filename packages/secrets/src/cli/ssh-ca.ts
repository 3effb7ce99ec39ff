import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, type CommandContext } from './command.js';
import { runSsh, type SshSettings } from './ssh-run.js';
import { expandHome } from './ssh-target.js';

/** What only `-mode=ca` reads. */
export interface CaOptions {
  home: string;
  /** The pair found by `findKeyPair`. */
  keys: { publicPath: string; privatePath: string };
  validPrincipals: string;
  hostKeyMount: string;
  hostKeyHostnames: string;
}

/** The extensions the established CLI asks for: an interactive session as ssh knows it. */
const USER_EXTENSIONS = {
  'permit-X11-forwarding': '',
  'permit-agent-forwarding': '',
  'permit-port-forwarding': '',
  'permit-pty': '',
  'permit-user-rc': '',
};

/**
 * `ward ssh -mode=ca`: `MOUNT/sign/ROLE` signs the public key for the user (or
 * `-valid-principals`); ssh then runs with the private key and the certificate (a 0600 file in
 * a temporary directory, removed afterwards). With `-host-key-mount-point`, that mount's CA is
 * written as `@cert-authority HOSTNAMES KEY` to a known-hosts file of its own and checking is strict.
 */
export async function sshWithCertificate(ctx: CommandContext, s: SshSettings, o: CaOptions): Promise<number> {
  const { keys } = o;
  let publicKey: string;
  try {
    publicKey = await readFile(keys.publicPath, 'utf8');
  } catch (err) {
    throw new CliError(`failed to read public key ${keys.publicPath}: ${(err as Error).message}`, 1);
  }
  const secret = await ctx.client.write(`${s.mount}/sign/${s.role}`, {
    public_key: publicKey,
    valid_principals: o.validPrincipals || s.username,
    cert_type: 'user',
    extensions: USER_EXTENSIONS,
  });
  if (s.noExec) {
    if (secret) ctx.out.secret(secret);
    return 0;
  }
  const signed = secret?.data?.signed_key;
  if (typeof signed !== 'string' || signed === '') throw new CliError('the server returned no signed key', 2);
  const dir = await mkdtemp(join(tmpdir(), 'ward-ssh-'));
  try {
    let knownHosts = s.userKnownHostsFile ? expandHome(s.userKnownHostsFile, o.home) : '';
    let strict = s.strictHostKeyChecking;
    if (o.hostKeyMount) {
      const ca = await ctx.client.read(`${o.hostKeyMount.replace(/\/+$/, '')}/config/ca`);
      const hostCa = ca?.data?.public_key;
      if (typeof hostCa !== 'string' || hostCa === '') throw new CliError('the host signing key is empty', 2);
      knownHosts = join(dir, 'known_hosts');
      await writeFile(knownHosts, `@cert-authority ${o.hostKeyHostnames} ${hostCa.trim()}\n`, { mode: 0o644 });
      strict = 'yes';
    }
    const certPath = join(dir, `ward_ssh_ca_${s.username}_${s.ip}-cert.pub`);
    await writeFile(certPath, signed, { mode: 0o600 });
    const args = ['-i', keys.privatePath, '-i', certPath, '-o', `StrictHostKeyChecking=${strict}`];
    if (knownHosts) args.push('-o', `UserKnownHostsFile=${knownHosts}`);
    return await runSsh(ctx, s.sshExecutable, [...args, ...s.sshArgs]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
