/** The `ward` command line as a function: the command table, the top-level flags and the exit status. @module */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isHelpFlag, USAGE_EXIT_CODE, usageErrorText } from '@ward/base';
import { ClientError, ConnectionError } from '@ward/secrets-client';
import { installCompletion, uninstallCompletion } from './autocomplete-install.js';
import { CliError, type CommandIO } from './command.js';
import { commandNames, commandsUnder, findCommand, suggestCommand } from './command-table.js';
import { parseArgs, UsageError } from './flags.js';
import { CapturedRequest } from './request-capture.js';

/** The top-level usage, listed from the command table so a new command cannot be left out. */
function usage(): string {
  const groups = new Map<string, string[]>();
  for (const name of commandNames()) {
    const [head = '', ...rest] = name.split(' ');
    groups.set(head, [...(groups.get(head) ?? []), rest.join(' ')].filter(Boolean));
  }
  const lines = [...groups].map(([head, subs]) => `  ${head}${subs.length ? ` ${subs.join('|')}` : ''}`);
  return [
    'Usage: ward <command> [options] [args]',
    '',
    'Commands (the client reads VAULT_ADDR or WARD_ADDR, VAULT_TOKEN, VAULT_NAMESPACE, VAULT_CACERT, VAULT_WRAP_TTL):',
    ...lines,
    '',
    'Run "ward <command> -help" for a command\'s options and an example; "ward completion bash|zsh" for completion.',
    '',
  ].join('\n');
}

const NO_FLAGS = new Map<string, never>();
const AUTOCOMPLETE_FLAGS = new Map([
  ['autocomplete-install', installCompletion],
  ['autocomplete-uninstall', (home: string) => uninstallCompletion(home)],
]);
const isVersionFlag = (a: string) => /^--?v(ersion)?$/.test(a);

/**
 * Runs one `ward` command line with `io` (the process, or a test's captured streams and environment);
 * the only place that decides the exit status. It never exits the process.
 */
export async function runCli(argv: string[], io: CommandIO): Promise<number> {
  const [first] = argv;
  if (first && isHelpFlag(first)) {
    io.runtime.stdout.write(usage());
    return 0;
  }
  try {
    if (!first) throw new UsageError(`no command given\n\n${usage()}`);
    const completion = AUTOCOMPLETE_FLAGS.get(first.replace(/^--?/, ''));
    if (completion) {
      const home = io.runtime.env.HOME || homedir();
      const files = await completion(home, fileURLToPath(new URL('../../../../../bin/ward', import.meta.url)));
      io.runtime.stdout.write(
        `Success! Completion ${first.includes('uninstall') ? 'removed from' : 'added to'} ${files.join(', ')}\n`,
      );
      return 0;
    }
    // Before the command only -help and -version are flags.
    if (!isVersionFlag(first)) parseArgs([first], NO_FLAGS, 'Run "ward -help" for the commands.');
    const found = findCommand(isVersionFlag(first) ? ['version', ...argv.slice(1)] : argv);
    if (!found) {
      const words = argv.filter((a) => !a.startsWith('-'));
      const group = commandsUnder(words.join(' '));
      if (group.length > 0) {
        const subcommands = `Usage: ward ${words.join(' ')} <subcommand>\n\n  ${group.join('\n  ')}\n`;
        io.runtime.stderr.write(usageErrorText(`"ward ${words.join(' ')}" needs a subcommand`, subcommands));
        return USAGE_EXIT_CODE;
      }
      const guess = suggestCommand(words.slice(0, 3));
      const hint = guess ? `\n\nDid you mean "ward ${guess}"?` : `\n\n${usage()}`;
      throw new UsageError(`unknown command "${argv.join(' ')}"${hint}`);
    }
    const command = await found.load();
    const rest = isVersionFlag(first) ? argv.slice(1) : argv.slice(found.words);
    // The shared parser decides: `-h` as a flag's value (`-field -h`) is a value, not a help request.
    if (parseArgs(rest, command.flags, `Run "ward ${command.name} -help" for the options and an example.`).isHelp) {
      io.runtime.stdout.write(command.help());
      return 0;
    }
    return await command.execute(rest, io);
  } catch (err) {
    // The client reports what its fetch threw as a connection failure, with the capture as cause.
    const captured = err instanceof CapturedRequest ? err : (err as Error).cause;
    if (captured instanceof CapturedRequest) {
      io.runtime.stdout.write(`${captured.text}\n`);
      return 0;
    }
    if (err instanceof UsageError) return fail(io, err.message, err.exitCode);
    if (err instanceof CliError) return fail(io, err.message, err.exitCode);
    // The wire keeps the established texts ("Vault is sealed"); the user reads about Ward.
    if (err instanceof ClientError)
      return fail(io, `${err.message.replace(/\bVault\b/g, 'Ward')}${connectionHint(err)}`, 2);
    return fail(io, (err as Error).stack ?? String(err), 2);
  }
}

/** Certificate failures a user fixes with the CLI's TLS options: say which ones. */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

function connectionHint(err: ClientError): string {
  if (!(err instanceof ConnectionError) || err.causeCode === undefined) return '';
  if (UNTRUSTED_CERTIFICATE.has(err.causeCode)) {
    return "\n\nThe server's certificate is not signed by a CA this client trusts: give the CA's PEM file with -ca-cert=FILE or VAULT_CACERT (or -tls-skip-verify, which is insecure).";
  }
  if (err.causeCode === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return "\n\nThe server's certificate does not name the host in the address: use a name the certificate has in VAULT_ADDR or -address.";
  }
  if (err.causeCode === 'ECONNREFUSED') return '\n\nIs the server running at that address (VAULT_ADDR, -address)?';
  return '';
}

function fail(io: CommandIO, message: string, code: number): number {
  io.runtime.stderr.write(`Error: ${message}\n`);
  return code;
}
