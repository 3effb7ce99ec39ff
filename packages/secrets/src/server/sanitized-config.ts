import type { ServerConfig } from './config.js';

/**
 * The configuration as `sys/config/state/sanitized` shows it. Built from an allow-list: only
 * settings that are never secret (addresses, flags, levels, file paths, types) are named; storage
 * and seal blocks show their type alone, since their settings hold credentials.
 */
export function sanitizedConfig(config: ServerConfig): Record<string, unknown> {
  const seals = [config.seals?.enabled, config.seals?.disabled].filter((s) => s !== undefined);
  return {
    api_addr: config.apiAddr ?? '',
    cluster_addr: config.clusterAddr ?? '',
    cluster_name: config.clusterName ?? '',
    log_level: config.logLevel,
    log_format: config.logJson ? 'json' : 'standard',
    log_file: config.logFile ?? '',
    log_requests: config.logRequests === true,
    pid_file: config.pidFile ?? '',
    default_lease_ttl: config.systemTtls?.defaultLeaseTtlSeconds ?? 768 * 3600,
    max_lease_ttl: config.systemTtls?.maxLeaseTtlSeconds ?? 768 * 3600,
    disable_performance_standby: config.disablePerformanceStandby === true,
    raw_storage_endpoint: config.rawStorageEndpoint === true,
    introspection_endpoint: config.introspectionEndpoint === true,
    kms_library: [...config.kmsLibraries].map(([name, library]) => ({ type: 'pkcs11', name, library })),
    storage: { type: config.storage.type },
    listeners: config.listeners.map((l) => ({
      type: 'tcp',
      config: {
        address: l.address,
        tls_disable: l.tlsDisable,
        ...(l.tlsCertFile ? { tls_cert_file: l.tlsCertFile } : {}),
        ...(l.tlsKeyFile ? { tls_key_file: l.tlsKeyFile } : {}),
        max_request_size: l.maxRequestSize,
        require_request_header: l.requireRequestHeader === true,
        telemetry: { unauthenticated_metrics_access: l.unauthenticatedMetricsAccess === true },
      },
    })),
    seals: seals.map((s) => ({ type: s.type, disabled: s.disabled })),
    telemetry: {
      disable_hostname: config.telemetry?.disableHostname === true,
      prometheus_retention_time: config.telemetry?.prometheusRetentionSeconds ?? 0,
    },
  };
}
