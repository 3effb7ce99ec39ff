import { type Check, millis } from './check.js';
import { type Finding, finding } from './result.js';

const dayText = (ms: number) => (ms % 86_400_000 === 0 ? `${ms / 86_400_000}d` : `${ms / 1000}s`);

/** `config/auto-tidy`: off is informational; an interval (or pause) at the thresholds a warning or critical. */
export const enableAutoTidy: Check = {
  name: 'enable_auto_tidy',
  defaults: {
    interval_duration_critical: '7d',
    interval_duration_warning: '2d',
    pause_duration_critical: '1s',
    pause_duration_warning: '200ms',
  },
  async run(reader, config) {
    const endpoint = `/${reader.mount}/config/auto-tidy`;
    const tidy = await reader.read('config/auto-tidy');
    if (!tidy) return [];
    if (tidy.enabled !== true) {
      return [
        finding('informational', endpoint, 'Auto-tidy is off: turn it on so expired certificates leave the store.'),
      ];
    }
    const results: Finding[] = [];
    for (const [setting, value] of [
      ['interval_duration', Number(tidy.interval_duration ?? 0) * 1000],
      ['pause_duration', durationMs(tidy.pause_duration)],
    ] as const) {
      const level =
        value >= millis(config, `${setting}_critical`)
          ? 'critical'
          : value >= millis(config, `${setting}_warning`)
            ? 'warning'
            : undefined;
      if (level) {
        results.push(
          finding(
            level,
            endpoint,
            `Auto-tidy's ${setting} (${dayText(value)}) is long: tidies run too seldom or too slowly.`,
          ),
        );
      }
    }
    return results.length > 0 ? results : [finding('ok', endpoint, 'Auto-tidy is on, with short enough intervals.')];
  },
};

/** `tidy-status`: no finished tidy, or none within the thresholds, is critical or a warning. */
export const tidyLastRun: Check = {
  name: 'tidy_last_run',
  defaults: { last_run_critical: '7d', last_run_warning: '2d' },
  async run(reader, config, nowMs) {
    const endpoint = `/${reader.mount}/tidy-status`;
    const status = await reader.read('tidy-status');
    if (!status) return [];
    const finished = typeof status.time_finished === 'string' ? Date.parse(status.time_finished) : Number.NaN;
    if (Number.isNaN(finished)) {
      return [finding('critical', endpoint, 'No tidy has finished on this mount: run one, or turn auto-tidy on.')];
    }
    const age = nowMs - finished;
    const level =
      age > millis(config, 'last_run_critical')
        ? 'critical'
        : age > millis(config, 'last_run_warning')
          ? 'warning'
          : 'ok';
    const message =
      level === 'ok'
        ? `The last tidy finished at ${new Date(finished).toISOString()}.`
        : `The last tidy finished at ${new Date(finished).toISOString()}: check the auto-tidy configuration or whatever runs tidy.`;
    return [finding(level, endpoint, message)];
  },
};

/** `pause_duration` as the server shows it: seconds, or a duration text; absent is no pause. */
function durationMs(value: unknown): number {
  if (typeof value === 'number') return value * 1000;
  if (typeof value !== 'string' || value === '') return 0;
  return millis({ value }, 'value');
}
