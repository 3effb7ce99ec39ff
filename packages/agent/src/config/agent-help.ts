/** What each `ward-agent agent` flag does, grouped as the established agent's help groups them. */
const GROUPS: ReadonlyArray<[string, ReadonlyArray<[string, string, string]>]> = [
  [
    'General Options (clients and servers)',
    [
      ['bind', '<addr>', 'The address every listener (HTTP, RPC, gossip) binds. Default 0.0.0.0.'],
      ['config', '<path>', 'An HCL1 or JSON config file. Repeatable; later files override earlier ones.'],
      ['data-dir', '<path>', 'Where node-id, gossip peers, Raft term and vote and ACL state are kept. Default: none.'],
      ['dc', '<datacenter>', 'The datacenter of this agent. Default dc1.'],
      ['region', '<region>', 'The region of this agent. Default global.'],
      ['node', '<name>', 'The node name (the gossip name is <name>.<region>). Default: the hostname.'],
      ['dev', '', 'Server and client in one process on 127.0.0.1, a single-server cluster, log level debug.'],
      ['encrypt', '<key>', "The gossip encryption key (base64 of 16, 24 or 32 bytes); a server's first start only."],
      ['join', '<address>', 'A gossip address to join at start. Repeatable or comma-separated.'],
      [
        'retry-join',
        '<address>',
        'A gossip address to join, retried until one answers. Repeatable or comma-separated.',
      ],
      ['retry-interval', '<duration>', 'The longest wait between join attempts. Default 30s.'],
      ['retry-max', '<n>', 'Join attempts before giving up; 0 retries until joined. Default 0.'],
      ['log-level', '<level>', 'The log level: trace, debug, info, warn or error. Default info.'],
      ['log-format', '<format>', 'The log format: standard or json. Default standard.'],
      ['log-json', '', 'Logs as JSON lines (as -log-format=json).'],
      ['enable-debug', '', 'Opens the host and pprof endpoints when ACLs are off.'],
      ['http-port', '<port>', 'The HTTP API port. Default 4646.'],
      ['rpc-port', '<port>', 'The RPC port. Default 4647.'],
      ['serf-port', '<port>', 'The gossip port. Default 4648.'],
    ],
  ],
  [
    'Server Options',
    [
      ['server', '', 'Runs a server.'],
      ['bootstrap-expect', '<n>', 'Servers needed before a leader is elected. Default 0 (treated as 1).'],
      [
        'raft-election-timeout',
        '<duration>',
        'A follower that hears no leader for a random time in [T, 2T) starts an election. Default 1s.',
      ],
      [
        'raft-heartbeat-interval',
        '<duration>',
        'How often the leader contacts each follower (at most half the election timeout). Default 100ms.',
      ],
    ],
  ],
  [
    'Client Options',
    [
      ['client', '', 'Runs a client.'],
      ['servers', '<address>', 'A server RPC address (host:port) for this client. Repeatable or comma-separated.'],
      ['heartbeat-interval', '<duration>', 'How often a client heartbeats its server. Default 10s.'],
    ],
  ],
  [
    'ACL Options',
    [
      ['acl-enabled', '', 'Enforces ACLs.'],
      ['acl-agent-token', '<secret>', 'The token this agent presents for its own RPCs (a client needs node:write).'],
    ],
  ],
  [
    "Gossip Options (Ward's own)",
    [
      ['gossip-profile', '<lan|wan>', 'The established gossip timings to start from. Default wan.'],
      ['gossip-probe-interval', '<duration>', 'How often a member is probed.'],
      ['gossip-probe-timeout', '<duration>', 'How long a probe waits for an answer (shorter than the interval).'],
      ['gossip-suspicion-mult', '<n>', 'The suspicion multiplier. Default 6.'],
      ['gossip-interval', '<duration>', 'How often gossip messages are sent.'],
      ['gossip-push-pull-interval', '<duration>', 'How often the full state is exchanged with a member.'],
      ['gossip-reconnect-interval', '<duration>', 'How often a failed member is tried again.'],
    ],
  ],
];

/** `ward-agent agent -help`: every flag the agent takes, with what it does. */
export function agentHelp(): string {
  const sections = GROUPS.map(([title, flags]) => {
    const lines = flags.map(([name, value, text]) => `  -${name}${value ? `=${value}` : ''}\n    ${text}\n`);
    return `${title}:\n\n${lines.join('\n')}`;
  });
  return `Usage: ward-agent agent [options]

  Starts the Ward cluster agent and runs until an interrupt is received (SIGINT or SIGTERM:
  it leaves the cluster gracefully). Flags take -name=value, -name value or --name; later
  flags override config files, which override -dev, which overrides the defaults.

${sections.join('\n')}
Example:
  ward-agent agent -dev
`;
}
