import type { MetricsReport } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';

/** `GET sys/metrics`: the server's metrics, as JSON or (`?format=prometheus`) the Prometheus text format. */
export function pathMetrics(metrics: MetricsReport): PathDefinition {
  return definePath({
    pattern: 'metrics',
    fields: { format: field.string({ description: '`prometheus` for the Prometheus text format; JSON otherwise.' }) },
    operations: {
      read: {
        summary: 'Report request, lease, storage, seal and process metrics.',
        handler: async ({ data }) => {
          const answer = await metrics.render(data.format ?? '');
          return { raw: { status: answer.status, body: answer.body, contentType: answer.contentType } };
        },
      },
    },
    help: {
      synopsis: 'Server metrics.',
      description: 'Prometheus output needs `telemetry { prometheus_retention_time }` above 0 in the configuration.',
    },
  });
}
