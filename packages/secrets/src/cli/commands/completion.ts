import type { Command } from '../command.js';
import { commandNames } from '../command-table.js';
import { completionScript } from '../completion.js';
import { UsageError } from '../flags.js';

const HELP = `Usage: ward completion bash|zsh

  Print a shell completion script for ward's commands.

Example:
  $ ward completion bash > ~/.ward-completion.bash   # then: source ~/.ward-completion.bash
`;

/** `ward completion bash|zsh`: needs no server, so it is not a client command. */
export const completionCommand: Command = {
  name: 'completion',
  summary: 'Print a bash or zsh completion script.',
  help: () => HELP,
  flags: new Map(),
  async execute(argv, { runtime }) {
    const [shell, ...extra] = argv;
    if (extra.length > 0 || (shell !== 'bash' && shell !== 'zsh')) {
      throw new UsageError(`completion takes one shell, bash or zsh\n\n${HELP}`);
    }
    runtime.stdout.write(completionScript(shell, commandNames()));
    return 0;
  },
};
