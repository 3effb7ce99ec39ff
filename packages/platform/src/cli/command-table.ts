import { CommandTable } from '@ward/base';
import type { Command } from './command.js';
import { adminCreateCommand } from './commands/admin-create.js';
import { serveCommand } from './commands/serve.js';

/** Every command of `ward-platform`, in the order the usage lists them: one line per command. */
export const COMMAND_LIST: readonly Command[] = [serveCommand, adminCreateCommand];

/** The same, by the words that select each; `version` and `-help` are `main`'s. */
export const COMMANDS = new CommandTable<Command>(COMMAND_LIST.map((c) => [c.name, () => c]));
