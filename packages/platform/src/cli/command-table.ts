import { CommandTable } from '@ward/base';
import type { Command } from './command.js';
import { adminCreateCommand } from './commands/admin-create.js';
import { serveCommand } from './commands/serve.js';

/** Every command of `ward-platform` by the words that select it; `version` and `-help` are `main`'s. */
export const COMMANDS = new CommandTable<Command>([serveCommand, adminCreateCommand].map((c) => [c.name, () => c]));
