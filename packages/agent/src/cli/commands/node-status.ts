import { UsageError } from '@ward/base';
import type { NodeStub } from '../../http/handlers/nodes.js';
import { COMMON_FLAGS_HELP, defineCommand, flag, writeJson } from '../command.js';
import { columns, keyValues } from '../format.js';

/** `ward-agent node status [<id>]`: the client nodes registered with the servers. */
export const nodeStatus = defineCommand({
  name: 'node status',
  summary: 'List client nodes, or show one',
  help: `Usage: ward-agent node status [options] [<node>]

  Lists the client nodes registered with the servers (ID, node pool, datacenter,
  name, class, drain, eligibility, status). With a <node> (an ID, ID prefix or
  name) shows that node. Needs node:read.

Options:
  -json     Print the nodes as JSON
  -verbose  Show full node IDs

Example:
  ward-agent node status
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool(), verbose: flag.bool() },
  async run({ flags, args }, ctx) {
    if (args.length > 1) throw new UsageError('This command takes either one or no arguments');
    const all = await ctx.api.get<NodeStub[]>('/v1/nodes');
    const wanted = args[0];
    if (wanted === undefined) {
      if (flags.json) {
        writeJson(ctx, all);
        return 0;
      }
      if (all.length === 0) return 0;
      const id = (s: string) => (flags.verbose ? s : s.slice(0, 8));
      const header = ['ID', 'Node Pool', 'DC', 'Name', 'Class', 'Drain', 'Eligibility', 'Status'];
      const rows = all.map((n) => [
        id(n.ID),
        n.NodePool,
        n.Datacenter,
        n.Name,
        n.NodeClass || '<none>',
        String(n.Drain),
        n.SchedulingEligibility,
        n.Status,
      ]);
      ctx.out.write(columns([header, ...rows]));
      return 0;
    }
    const found = all.filter((n) => n.ID.startsWith(wanted) || n.Name === wanted);
    if (found.length === 0) {
      ctx.err.write(`No node(s) with prefix "${wanted}" found\n`);
      return 1;
    }
    if (found.length > 1) {
      ctx.err.write(`Prefix matched multiple nodes\n\n${found.map((n) => n.ID).join('\n')}\n`);
      return 1;
    }
    const n = found[0] as NodeStub;
    if (flags.json) {
      writeJson(ctx, n);
      return 0;
    }
    ctx.out.write(
      keyValues([
        ['ID', n.ID],
        ['Name', n.Name],
        ['Node Pool', n.NodePool],
        ['Class', n.NodeClass || '<none>'],
        ['DC', n.Datacenter],
        ['Drain', String(n.Drain)],
        ['Eligibility', n.SchedulingEligibility],
        ['Status', n.Status],
      ]),
    );
    return 0;
  },
});
