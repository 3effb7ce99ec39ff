/**
 * The keys of the established agent configuration file, block by block: the ones Ward acts on,
 * and the ones it accepts with a startup warning that they have no effect (with the reason).
 * Any other key is refused with its line and the nearest known key.
 */
export interface BlockKeys {
  /** Keys Ward reads. A key that is itself a checked block is listed here and in `BLOCKS`. */
  known: readonly string[];
  /** Established keys (or whole blocks) Ward accepts without acting on them, and why. */
  inert: ReadonlyMap<string, string>;
}

const SCHEDULER = 'Ward agents run no workloads';
const NO_CONSUL = 'Ward has no Consul or Vault integration';

const TOP: BlockKeys = {
  known: [
    'name',
    'region',
    'datacenter',
    'data_dir',
    'bind_addr',
    'ports',
    'server',
    'client',
    'acl',
    'tls',
    'enable_debug',
    'log_level',
    'log_json',
    'gossip_profile',
    'gossip',
    'raft',
  ],
  inert: new Map([
    ['telemetry', 'the agent keeps no metrics sinks (statsd, statsite, Prometheus, Circonus, Datadog)'],
    ['consul', NO_CONSUL],
    ['vault', NO_CONSUL],
    ['plugin', SCHEDULER],
    ['plugin_dir', SCHEDULER],
    ['addresses', 'every listener binds bind_addr'],
    ['advertise', 'the agent advertises bind_addr (or the address it is reached at)'],
    ['interfaces', 'every listener binds bind_addr'],
    ['log_file', 'logs go to standard error only'],
    ['log_rotate_bytes', 'logs go to standard error only'],
    ['log_rotate_duration', 'logs go to standard error only'],
    ['log_rotate_max_files', 'logs go to standard error only'],
    ['log_include_location', 'log lines carry no source location'],
    ['leave_on_interrupt', 'the agent always leaves gracefully on SIGINT and SIGTERM'],
    ['leave_on_terminate', 'the agent always leaves gracefully on SIGINT and SIGTERM'],
    ['enable_syslog', 'logs go to standard error only'],
    ['syslog_facility', 'logs go to standard error only'],
    ['disable_update_check', 'Ward never checks for updates'],
    ['disable_anonymous_signature', 'Ward never checks for updates'],
    ['http_api_response_headers', 'the HTTP API sends its fixed headers'],
    ['ui', 'the agent serves no web UI'],
    ['limits', 'connection limits are not configurable'],
    ['autopilot', 'Ward has no autopilot'],
    ['audit', 'the agent keeps no audit log'],
    ['sentinel', 'Sentinel is an Enterprise feature'],
    ['reporting', 'Ward reports nothing'],
    ['keyring', 'the gossip keyring is kept in data_dir'],
  ]),
};

const SERVER: BlockKeys = {
  known: [
    'enabled',
    'bootstrap_expect',
    'start_join',
    'retry_join',
    'retry_interval',
    'retry_max',
    'server_join',
    'encrypt',
  ],
  inert: new Map(
    [
      'data_dir',
      'protocol_version',
      'raft_protocol',
      'raft_multiplier',
      'num_schedulers',
      'enabled_schedulers',
      'node_gc_threshold',
      'job_gc_interval',
      'job_gc_threshold',
      'eval_gc_threshold',
      'deployment_gc_threshold',
      'csi_volume_claim_gc_threshold',
      'csi_plugin_gc_threshold',
      'acl_token_gc_threshold',
      'heartbeat_grace',
      'min_heartbeat_ttl',
      'max_heartbeats_per_second',
      'failover_heartbeat_ttl',
      'rejoin_after_leave',
      'authoritative_region',
      'redundancy_zone',
      'upgrade_version',
      'non_voting_server',
      'license_path',
      'default_scheduler_config',
      'plan_rejection_tracker',
      'raft_boltdb',
      'raft_snapshot_threshold',
      'raft_snapshot_interval',
      'raft_trailing_logs',
      'search',
      'event_buffer_size',
      'job_max_priority',
      'job_default_priority',
      'node_gc_interval',
    ].map((k) => [k, SCHEDULER]),
  ),
};

const CLIENT: BlockKeys = {
  known: ['enabled', 'servers'],
  inert: new Map([
    ...[
      'state_dir',
      'alloc_dir',
      'node_class',
      'node_pool',
      'options',
      'meta',
      'network_interface',
      'network_speed',
      'cpu_total_compute',
      'memory_total_mb',
      'reserved',
      'gc_interval',
      'gc_disk_usage_threshold',
      'gc_inode_usage_threshold',
      'gc_max_allocs',
      'gc_parallel_destroys',
      'host_volume',
      'host_network',
      'drain_on_shutdown',
      'max_kill_timeout',
      'chroot_env',
      'artifact',
      'template',
      'cni_path',
      'bridge_network_name',
      'bridge_network_subnet',
      'cgroup_parent',
    ].map((k): [string, string] => [k, SCHEDULER]),
    ['server_join', 'a client finds its servers through client.servers'],
  ]),
};

const SERVER_JOIN: BlockKeys = {
  known: ['retry_join', 'retry_interval', 'retry_max'],
  inert: new Map([['start_join', 'write start_join in the server block']]),
};

const TLS: BlockKeys = {
  known: ['rpc', 'verify_server_hostname', 'ca_file', 'cert_file', 'key_file'],
  inert: new Map(
    [
      'http',
      'verify_https_client',
      'tls_min_version',
      'tls_cipher_suites',
      'tls_prefer_server_cipher_suites',
      'rpc_upgrade_mode',
      'checks_use_advertise',
    ].map((k) => [k, 'TLS is configurable on the RPC port only']),
  ),
};

const ACL: BlockKeys = {
  known: ['enabled', 'agent_token'],
  inert: new Map(
    [
      'token_ttl',
      'policy_ttl',
      'role_ttl',
      'replication_token',
      'token_min_expiration_ttl',
      'token_max_expiration_ttl',
    ].map((k) => [k, 'Ward has no ACL roles, caches or replication']),
  ),
};

const NONE = new Map<string, string>();

/** Every checked block, by its path of names from the top (`server.server_join`). */
export const BLOCKS: ReadonlyMap<string, BlockKeys> = new Map([
  ['', TOP],
  ['server', SERVER],
  ['server.server_join', SERVER_JOIN],
  ['client', CLIENT],
  ['ports', { known: ['http', 'rpc', 'serf'], inert: NONE }],
  ['acl', ACL],
  ['tls', TLS],
  [
    'gossip',
    {
      known: [
        'probe_interval',
        'probe_timeout',
        'suspicion_mult',
        'gossip_interval',
        'push_pull_interval',
        'reconnect_interval',
        'reconnect_timeout',
        'tombstone_timeout',
      ],
      inert: NONE,
    },
  ],
  ['raft', { known: ['election_timeout', 'heartbeat_interval'], inert: NONE }],
]);
