import { CliError, type CommandContext } from './command.js';

/** The settings both modes share, after flags and their VAULT_SSH_* variables. */
export interface SshSettings {
  mount: string;
  role: string;
  username: string;
  ip: string;
  port: string;
  noExec: boolean;
  strictHostKeyChecking: string;
  userKnownHostsFile: string;
  sshExecutable: string;
  sshArgs: string[];
}

/** ssh's status is ward's; a failure says so on stderr as established. */
export async function runSsh(
  ctx: CommandContext,
  program: string,
  args: string[],
  extraEnv?: Record<string, string>,
): Promise<number> {
  const status = await ctx.runProgram(program, args, extraEnv);
  if (status !== 0) throw new CliError(`failed to run ssh command: exit status ${status}`, status);
  return 0;
}
