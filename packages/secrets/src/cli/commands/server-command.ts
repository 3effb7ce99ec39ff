import { LogicalError } from '../../logical/errors.js';
import { CliError, type Command } from '../command.js';
import { parseArgs, UsageError } from '../flags.js';
import { runServer, SERVER_FLAGS, SERVER_HELP } from './server.js';

/** `ward server`: the server itself, in the same table as the client commands. */
export const serverCommand: Command = {
  name: 'server',
  summary: 'Start the secrets server (ward server -dev, ward server -config=FILE).',
  help: () => SERVER_HELP,
  flags: SERVER_FLAGS,
  async execute(argv, { runtime }) {
    try {
      const args = parseArgs(argv, SERVER_FLAGS, 'Run "ward server -help" for the options.');
      if (args.args.length > 0) throw new UsageError(`unexpected argument: ${args.args[0]}\n\n${SERVER_HELP}`);
      await runServer(args, runtime.env, runtime.stdout);
    } catch (err) {
      // The server's own typed errors (a bad configuration, a port in use) end the process with
      // status 1 and one line, as the established server does.
      if (err instanceof LogicalError) throw new CliError(err.message, 1);
      throw err;
    }
    return 0;
  },
};
