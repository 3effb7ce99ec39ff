import type { RaftServer } from '../../http/handlers/operator.js';
import { COMMON_FLAGS_HELP, type Command, flagBool, noArgs, writeJson } from '../command.js';
import { columns } from '../format.js';

/** `ward-agent operator raft list-peers`: the Raft peers of the servers, with the leader. */
export const operatorRaftListPeers: Command = {
  name: 'operator raft list-peers',
  synopsis: 'List the Raft peers of the servers',
  help: `Usage: ward-agent operator raft list-peers [options]

  Lists the Raft peers of the server the agent talks to: node, ID, RPC address,
  whether it leads (State) and whether it votes. Needs agent:read.

Options:
  -json  Print the configuration as JSON

Example:
  ward-agent operator raft list-peers
${COMMON_FLAGS_HELP}`,
  flags: new Map([['json', 'bool']]),
  async run(ctx) {
    noArgs(ctx);
    const config = await ctx.api.get<{ Servers: RaftServer[]; Index: number }>('/v1/operator/raft/configuration');
    if (flagBool(ctx, 'json')) {
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
};
