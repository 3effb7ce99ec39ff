import { setTimeout as sleep } from 'node:timers/promises';
import { durationMs, isLogFormat, parseDuration } from '@ward/base';
import { VERSION } from '../../server/version.js';
import { defineCommand, flag } from '../command.js';
import { collectDebugBundle, DEBUG_TARGETS } from '../debug-bundle.js';
import { UsageError } from '../flags.js';

/**
 * `ward debug`: the established diagnosis bundle — server status, sanitized config, metrics, host
 * information and the server log for a duration — as a `.tar.gz`.
 */
export const debugCommand = defineCommand({
  name: 'debug',
  summary: 'Collect server status, metrics and logs for a while into a .tar.gz.',
  usage: '',
  example: 'ward debug -duration=1m -interval=10s -output=ward-debug.tar.gz',
  description: `Targets (-target, repeatable; default all): ${DEBUG_TARGETS.join(', ')}. Ward has no pprof profiles and no replication: those targets are recorded as errors in index.json. The log needs sudo on sys/monitor.`,
  flags: {
    duration: flag.string('How long to collect (default 2m).', '2m'),
    interval: flag.string('How often to poll server status (default 30s).', '30s'),
    'metrics-interval': flag.string('How often to poll metrics (default 10s).', '10s'),
    output: flag.string('The .tar.gz to write (default ward-debug-<time>.tar.gz).'),
    target: flag.list('What to collect (repeatable).'),
    'log-format': flag.string('Format of the captured log: standard or json.', 'standard'),
    compress: flag.bool('Accepted for the established CLI; the bundle is always a .tar.gz.'),
  },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out, argv }) {
    const duration = msOf('duration', flags.duration);
    const interval = Math.min(msOf('interval', flags.interval), duration);
    const metricsInterval = Math.min(msOf('metrics-interval', flags['metrics-interval']), duration);
    if (duration < 1000) throw new UsageError('-duration must be at least 1s');
    if (interval < 1000 || metricsInterval < 1000) throw new UsageError('intervals must be at least 1s');
    const targets = flags.target.length > 0 ? flags.target : DEBUG_TARGETS;
    for (const t of targets) {
      if (!DEBUG_TARGETS.includes(t)) throw new UsageError(`unknown target "${t}": use ${DEBUG_TARGETS.join(', ')}`);
    }
    const format = flags['log-format'];
    if (!isLogFormat(format)) throw new UsageError(`invalid log format "${format}": use standard or json`);
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const output = flags.output ?? `ward-debug-${stamp}.tar.gz`;
    if (!/\.(tar\.gz|tgz)$/.test(output)) throw new UsageError('-output must end in .tar.gz or .tgz');
    const result = await collectDebugBundle({
      client,
      clientVersion: VERSION,
      durationMs: duration,
      intervalMs: interval,
      metricsIntervalMs: metricsInterval,
      targets,
      output,
      rawArgs: [...argv],
      logFormat: format,
      now: Date.now,
      sleep: (ms) => sleep(ms),
    });
    for (const e of result.errors) out.note(`Warning: ${e.target}: ${e.error}`);
    out.text(`Success! Bundle written to: ${result.output}`, { output: result.output, errors: result.errors });
    return undefined;
  },
});

function msOf(name: string, text: string): number {
  try {
    return durationMs(parseDuration(text, 'api'));
  } catch (err) {
    throw new UsageError(`invalid -${name} "${text}": ${(err as Error).message}`);
  }
}
