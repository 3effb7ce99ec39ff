import { LogicalError } from '../../logical/errors.js';
import { CliError, defineProcessCommand } from '../command.js';
import { UsageError } from '../flags.js';
import { runServer, SERVER_FLAGS, SERVER_HELP } from './server.js';

/** `ward server`: the server itself, in the same table as the client commands. */
export const serverCommand = defineProcessCommand({
  name: 'server',
  summary: 'Start the secrets server (ward server -dev, ward server -config=FILE).',
  flags: SERVER_FLAGS,
  help: SERVER_HELP,
  async run({ flags, args }, runtime) {
    if (args.length > 0) throw new UsageError(`unexpected argument: ${args[0]}\n\n${SERVER_HELP}`);
    try {
      await runServer(flags, runtime.env, runtime.stdout);
    } catch (err) {
      // The server's own typed errors (a bad configuration, a port in use) end the process with
      // status 1 and one line, as the established server does.
      if (err instanceof LogicalError) throw new CliError(err.message, 1);
      throw err;
    }
    return 0;
  },
});
