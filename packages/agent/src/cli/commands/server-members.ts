import type { MembersResponse } from '../../members.js';
import { COMMON_FLAGS_HELP, defineCommand, flag, noArgs } from '../command.js';
import { columns } from '../format.js';

/** `ward-agent server members`: the server pool as the agent sees it, with the Raft leader marked. */
export const serverMembers = defineCommand({
  name: 'server members',
  summary: 'List the server pool and which server leads',
  help: `Usage: ward-agent server members [options]

  Lists the servers of the gossip pool known to the agent, with their status and
  which one is the Raft leader.

Options:
  -detailed  Also show every member's tags

Example:
  ward-agent server members -address=http://10.0.0.11:4646
${COMMON_FLAGS_HELP}`,
  flags: { detailed: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const [pool, leader] = await Promise.all([
      ctx.api.get<MembersResponse>('/v1/agent/members'),
      ctx.api.get<string>('/v1/status/leader'),
    ]);
    const header = ['Name', 'Address', 'Port', 'Status', 'Leader', 'Raft Version', 'Build', 'Datacenter', 'Region'];
    const detailed = flags.detailed;
    const rows = [...pool.Members]
      .filter((m) => m.Tags?.role === 'nomad')
      .sort((a, b) => a.Name.localeCompare(b.Name))
      .map((m) => {
        const t = m.Tags ?? {};
        const row = [
          m.Name,
          m.Addr,
          String(m.Port),
          m.Status,
          String(leader !== '' && `${t.rpc_addr}:${t.port}` === leader),
          t.raft_vsn ?? '',
          t.build ?? '',
          t.dc ?? '',
          t.region ?? '',
        ];
        if (detailed)
          row.push(
            Object.entries(t)
              .map(([k, v]) => `${k}=${v}`)
              .sort()
              .join(','),
          );
        return row;
      });
    ctx.out.write(columns([detailed ? [...header, 'Tags'] : header, ...rows]));
    return 0;
  },
});
