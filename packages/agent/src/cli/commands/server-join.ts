import { UsageError } from '@ward/base';
import type { JoinResponse } from '../../api-types.js';
import { COMMON_FLAGS_HELP, defineCommand, flag } from '../command.js';

/** `ward-agent server join <addr>…`: asks the agent to join other servers' gossip pool. */
export const serverJoin = defineCommand({
  name: 'server join',
  summary: 'Join the agent to other servers',
  help: `Usage: ward-agent server join [options] <addr> [<addr>...]

  Joins the local server to one or more servers (their gossip address, host or
  host:port, default port 4648). Prints how many were joined.

Example:
  ward-agent server join 10.0.0.12:4648
${COMMON_FLAGS_HELP}`,
  flags: {},
  async run({ args }, ctx) {
    if (args.length === 0) throw new UsageError('One or more server addresses required');
    const q = new URLSearchParams(args.map((a) => ['address', a]));
    const res = await ctx.api.put<JoinResponse>(`/v1/agent/join?${q}`, undefined);
    const joined = res?.num_joined ?? 0;
    if (joined === 0) {
      ctx.err.write(`Error joining: ${(res?.error ?? '').trim()}\n`);
      return 1;
    }
    ctx.out.write(`Joined ${joined} servers successfully\n`);
    return 0;
  },
});

/** `ward-agent server force-leave <node>`: marks a failed server as left. */
export const serverForceLeave = defineCommand({
  name: 'server force-leave',
  summary: 'Force a failed server into the left state',
  help: `Usage: ward-agent server force-leave [options] <node>

  Forces a server member of the gossip pool that has failed into the "left"
  state (a live one refutes it and stays alive). Needs agent:write.

Options:
  -prune  Also remove the member from the list at once

Example:
  ward-agent server force-leave s3.global
${COMMON_FLAGS_HELP}`,
  flags: { prune: flag.bool() },
  async run({ flags, args }, ctx) {
    if (args.length !== 1) throw new UsageError('This command takes one argument: <node>');
    const node = args[0] as string;
    const q = new URLSearchParams({ node });
    if (flags.prune) q.set('prune', 'true');
    try {
      await ctx.api.put(`/v1/agent/force-leave?${q}`, undefined);
    } catch (err) {
      ctx.err.write(`Error force-leaving server ${node}: ${(err as Error).message}\n`);
      return 1;
    }
    return 0;
  },
});
