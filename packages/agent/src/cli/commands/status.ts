import { UsageError } from '@ward/base';
import { COMMON_FLAGS_HELP, defineCommand } from '../command.js';

/**
 * `ward-agent status [<prefix>]`: the established scheduler's jobs overview. Ward agents run
 * no jobs, so there is never one to list; the agent is asked first, so an unreachable one fails.
 */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'List jobs (Ward agents run none)',
  help: `Usage: ward-agent status [options] [<id>]

  The established scheduler's overview of running jobs. Ward agents schedule no
  workloads, so it prints "No running jobs" once the agent answers; with an <id>
  no job matches.

Example:
  ward-agent status
${COMMON_FLAGS_HELP}`,
  flags: {},
  async run({ args }, ctx) {
    if (args.length > 1) throw new UsageError('This command takes either no arguments or one: <identifier>');
    await ctx.api.get<string>('/v1/status/leader');
    if (args.length === 1) {
      ctx.err.write(`No matches found for "${args[0]}"\n`);
      return 1;
    }
    ctx.out.write('No running jobs\n');
    return 0;
  },
});
