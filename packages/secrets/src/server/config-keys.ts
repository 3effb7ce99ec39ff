/**
 * Keys of the established server's configuration that Ward accepts but does not act on, by part of
 * the file, each with why: a file from a running deployment starts, and its operator is told at
 * startup, key by key, what Ward ignores. Keys Ward acts on are read in config.ts and
 * listener-config.ts; anything in neither place is refused as unknown.
 */
export type NoEffectKeys = ReadonlyMap<string, string>;

const NO_CACHE = 'Ward keeps its own caches (storage reads are served from memory)';
const NO_PLUGINS = 'Ward has no external plugins: every engine and auth method is built in';
const ENTERPRISE = 'an enterprise feature Ward does not have';
const NO_LOG_ROTATION = 'Ward does not rotate log files (use logrotate with copytruncate)';

export const TOP_LEVEL_NO_EFFECT: NoEffectKeys = new Map([
  ['disable_mlock', 'Ward (Node.js) cannot lock its memory; use encrypted swap or no swap'],
  ['cache_size', NO_CACHE],
  ['disable_cache', NO_CACHE],
  ['plugin_directory', NO_PLUGINS],
  ['plugin_tmpdir', NO_PLUGINS],
  ['plugin_file_uid', NO_PLUGINS],
  ['plugin_file_permissions', NO_PLUGINS],
  ['plugin_auto_download', NO_PLUGINS],
  ['plugin_auto_register', NO_PLUGINS],
  ['disable_clustering', 'Ward forwards to the active server only when cluster_addr is set'],
  ['cluster_cipher_suites', 'the cluster channel uses the TLS 1.3 defaults of Node.js'],
  ['default_max_request_duration', 'set max_request_duration on the listener instead'],
  ['disable_printable_check', 'Ward always accepts any UTF-8 in paths'],
  ['detect_deadlocks', 'Ward has no lock-order tracing'],
  ['enable_response_header_hostname', 'Ward does not add an X-Vault-Hostname header'],
  ['enable_response_header_raft_node_id', 'Ward has no raft storage'],
  ['log_requests_level', 'use log_requests = true (one info line per request)'],
  ['log_rotate_duration', NO_LOG_ROTATION],
  ['log_rotate_bytes', NO_LOG_ROTATION],
  ['log_rotate_max_files', NO_LOG_ROTATION],
  ['imprecise_lease_role_tracking', 'Ward counts leases exactly'],
  ['experiments', 'Ward has no experiments to enable'],
  ['enable_post_unseal_trace', 'Ward has no post-unseal trace'],
  ['post_unseal_trace_directory', 'Ward has no post-unseal trace'],
  ['user_lockout', 'lockout is configured per auth mount (sys/auth/:path/tune user_lockout_config)'],
  ['service_registration', 'Ward does not register itself in Consul or Kubernetes'],
  ['ha_storage', 'Ward takes the HA lock in its storage (etcd with ha_enabled)'],
  ['hcp_link', 'Ward has no HCP link'],
  ['cloud', 'Ward has no HCP link'],
  ['reporting', 'Ward sends no usage reports'],
  ['unsafe_allow_api_audit_creation', 'Ward creates audit devices through the API as before'],
  ['allow_audit_log_prefixing', 'Ward audit devices have no prefix option'],
  ['unsafe_cross_namespace_identity', 'Ward keeps identity within each namespace'],
  ['license_path', ENTERPRISE],
  ['license', ENTERPRISE],
  ['disable_sealwrap', ENTERPRISE],
  ['disable_indexing', ENTERPRISE],
  ['disable_sentinel_trace', ENTERPRISE],
  ['entropy', ENTERPRISE],
  ['replication', ENTERPRISE],
  ['sentinel', ENTERPRISE],
  ['administrative_namespace_path', ENTERPRISE],
  ['enable_multiseal', ENTERPRISE],
]);

/** `telemetry { … }`: Ward serves metrics only at sys/metrics (JSON, and Prometheus text). */
const NO_SINK = 'Ward serves metrics only at sys/metrics (JSON and Prometheus); it pushes to no sink';
export const TELEMETRY_NO_EFFECT: NoEffectKeys = new Map([
  ...[
    'statsite_address',
    'statsd_address',
    'dogstatsd_addr',
    'dogstatsd_tags',
    'circonus_api_token',
    'circonus_api_app',
    'circonus_api_url',
    'circonus_submission_interval',
    'circonus_submission_url',
    'circonus_check_id',
    'circonus_check_force_metric_activation',
    'circonus_check_instance_id',
    'circonus_check_search_tag',
    'circonus_check_display_name',
    'circonus_check_tags',
    'circonus_broker_id',
    'circonus_broker_select_tag',
    'stackdriver_project_id',
    'stackdriver_location',
    'stackdriver_namespace',
    'stackdriver_debug_logs',
  ].map((k): [string, string] => [k, NO_SINK]),
  ...[
    'usage_gauge_period',
    'maximum_gauge_cardinality',
    'enable_hostname_label',
    'metrics_prefix',
    'filter_default',
    'prefix_filter',
    'lease_metrics_epsilon',
    'num_lease_metrics_buckets',
    'add_lease_metrics_namespace_labels',
    'add_mount_point_rollback_metrics',
  ].map((k): [string, string] => [k, 'Ward’s metric names and labels are fixed']),
]);

/** `listener "tcp" { … }` keys Ward does not act on. */
export const LISTENER_NO_EFFECT: NoEffectKeys = new Map([
  ['purpose', 'Ward listeners serve the API only'],
  ['role', 'Ward listeners serve the API only'],
  ['tls_prefer_server_cipher_suites', 'deprecated by the established server; Node.js picks the server order'],
  ['profiling', 'Ward has no sys/pprof endpoint'],
  ['inflight_requests_logging', 'Ward has no sys/in-flight-req endpoint'],
  ['custom_response_headers', 'Ward sends its fixed response headers'],
  ['chroot_namespace', 'Ward serves every namespace on every listener'],
  ['redact_addresses', 'Ward does not redact sys/leader and sys/health'],
  ['redact_cluster_name', 'Ward does not redact sys/leader and sys/health'],
  ['redact_version', 'Ward does not redact sys/leader and sys/health'],
  ['disable_replication_status_endpoints', 'Ward has no replication status endpoints'],
  ['disable_request_limiter', 'Ward has no adaptive request limiter'],
  ['disable_unauthed_generate_root_endpoints', 'Ward’s generate-root endpoints follow the established Vault defaults'],
  ['max_json_token', 'Ward limits JSON by depth, string length, entries and elements'],
  ['max_token_header_size', 'Ward accepts token headers up to the HTTP header limit'],
  ['agent_api', 'an Agent and Proxy key; the server has no agent API'],
  ['proxy_api', 'an Agent and Proxy key; the server has no agent API'],
  ['http_read_header_timeout', 'Ward waits 10 s for request headers'],
  ['http_read_timeout', 'Ward bounds a whole request by max_request_duration'],
  ['http_write_timeout', 'Ward bounds a whole request by max_request_duration'],
  ['cors_enabled', 'configure CORS with sys/config/cors'],
  ['cors_allowed_origins', 'configure CORS with sys/config/cors'],
  ['cors_allowed_headers', 'configure CORS with sys/config/cors'],
  ['socket_mode', 'a key of unix listeners'],
  ['socket_user', 'a key of unix listeners'],
  ['socket_group', 'a key of unix listeners'],
]);
