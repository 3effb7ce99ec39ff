#!/usr/bin/env node
import { ClientError } from '@ward/secrets-client';
import { CliError, type CommandIO } from './command.js';
import { commandsUnder, findCommand } from './command-table.js';
import { contextFactory } from './context.js';
import { UsageError } from './flags.js';

const USAGE = `Usage: ward <command> [options] [args]

Server:
  server              Start the secrets server (ward server -dev, ward server -config=FILE)
  proxy               Start an API proxy with auto-auth and a lease cache (ward proxy -config=FILE)

Client (reads VAULT_ADDR or WARD_ADDR, VAULT_TOKEN, VAULT_NAMESPACE, VAULT_CACERT, VAULT_SKIP_VERIFY):
  status              operator init|unseal|seal        login
  token create|lookup|renew|revoke                     read  write  list  delete
  kv get|put|list|delete|metadata get|metadata delete  path-help
  secrets enable|disable|list|tune   auth enable|disable|list
  policy write|read|list|delete      namespace create|list|delete

Run "ward <command> -help" for a command's options.
`;

const isHelpFlag = (a: string) => /^--?h(elp)?$/.test(a);

/** Runs the CLI; the only place that decides the exit status. */
async function main(argv: string[], io: CommandIO): Promise<number> {
  const [first] = argv;
  if (!first || isHelpFlag(first)) {
    io.runtime.stdout.write(USAGE);
    return first ? 0 : 1;
  }
  try {
    const found = findCommand(argv);
    if (!found) {
      const group = commandsUnder(argv.filter((a) => !a.startsWith('-')).join(' '));
      if (group.length > 0) {
        process.stderr.write(`Usage: ward ${argv.join(' ')} <subcommand>\n\n  ${group.join('\n  ')}\n`);
        return 1;
      }
      throw new UsageError(`unknown command "${argv.join(' ')}"\n\n${USAGE}`);
    }
    const command = await found.load();
    const rest = argv.slice(found.words);
    const flagsEnd = rest.findIndex((a) => !a.startsWith('-') || a === '-' || a === '--');
    if (rest.slice(0, flagsEnd === -1 ? rest.length : flagsEnd).some(isHelpFlag)) {
      io.runtime.stdout.write(command.help());
      return 0;
    }
    return await command.execute(rest, io);
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 1);
    if (err instanceof CliError) return fail(err.message, err.exitCode);
    if (err instanceof ClientError) return fail(err.message, 2);
    return fail((err as Error).stack ?? String(err), 2);
  }
}

function fail(message: string, code: number): number {
  process.stderr.write(`Error: ${message}\n`);
  return code;
}

const runtime = { env: process.env, stdout: process.stdout, stdin: process.stdin };
process.exitCode = await main(process.argv.slice(2), { runtime, makeContext: contextFactory(runtime) });
