import { defineCommand } from '../command.js';
import { haNodes } from '../ha-nodes.js';

/**
 * `ward operator raft list-peers`: Ward has no integrated (raft) storage; its replicated storage
 * is etcd or PostgreSQL, whose own tools list their members. What a script calling this wants is
 * the servers and the leader, so it answers the established table from the HA cluster's servers.
 */
export const operatorRaftListPeersCommand = defineCommand({
  name: 'operator raft list-peers',
  summary: 'List the servers of the HA cluster in the raft peer table (Ward replicates through etcd or PostgreSQL).',
  usage: '',
  example: 'ward operator raft list-peers',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const { nodes, raw } = await haNodes(client);
    out.rows(
      ['Node', 'Address', 'State', 'Voter'],
      nodes.map((n) => [n.hostname, n.cluster_address || n.api_address, n.active_node ? 'leader' : 'follower', true]),
      raw,
    );
    return undefined;
  },
});
