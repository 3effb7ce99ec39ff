import type { RaftServer } from '../../http/handlers/operator.js';
import { COMMON_FLAGS_HELP, defineCommand, flag, noArgs, writeJson } from '../command.js';
import { columns } from '../format.js';

/** `ward-agent operator raft list-peers`: the Raft peers of the servers, with the leader. */
export const operatorRaftListPeers = defineCommand({
  name: 'operator raft list-peers',
  summary: 'List the Raft peers of the servers',
  help: `Usage: ward-agent operator raft list-peers [options]

  Lists the Raft peers of the server the agent talks to: node, ID, RPC address,
  whether it leads (State) and whether it votes. Needs agent:read.

Options:
  -json  Print the configuration as JSON

Example:
  ward-agent operator raft list-peers
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const config = await ctx.api.get<{ Servers: RaftServer[]; Index: number }>('/v1/operator/raft/configuration');
    if (flags.json) {
      writeJson(ctx, config);
      return 0;
    }
    const rows = config.Servers.map((s) => [
      s.Node,
      s.ID,
      s.Address,
      s.Leader ? 'leader' : 'follower',
      String(s.Voter),
      s.RaftProtocol,
    ]);
    ctx.out.write(columns([['Node', 'ID', 'Address', 'State', 'Voter', 'RaftProtocol'], ...rows]));
    return 0;
  },
});
