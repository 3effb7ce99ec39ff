import { defineCommand } from '../command.js';
import { haNodes } from '../ha-nodes.js';

/** `ward operator members`: the servers of the HA cluster (sys/ha-status), as established. */
export const operatorMembersCommand = defineCommand({
  name: 'operator members',
  summary: 'List the servers of the HA cluster and which one is active.',
  usage: '',
  example: 'ward operator members',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const { nodes, raw } = await haNodes(client);
    out.rows(
      ['Host Name', 'API Address', 'Cluster Address', 'Active Node', 'Version', 'Last Echo'],
      nodes.map((n) => [n.hostname, n.api_address, n.cluster_address, n.active_node, n.version, n.last_echo ?? '']),
      raw,
    );
    return undefined;
  },
});
