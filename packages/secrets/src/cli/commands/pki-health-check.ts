import { CliError, defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { CHECKS, type CheckConfig, runCheck } from '../pki-health/checks.js';
import { type Finding, MountReader, STATUS } from '../pki-health/result.js';
import { trimSlashes } from './pki-verify-sign.js';

/** `-return-indicator` → the lowest status that makes the exit status non-zero, as established. */
const CUT_OFFS = new Map([
  ['default', STATUS.informational],
  ['informational', STATUS.informational],
  ['warning', STATUS.warning],
  ['critical', STATUS.critical],
  ['permission', STATUS.invalid_version],
]);

/**
 * `ward pki health-check [options] MOUNT`: the established checks Ward's endpoints allow, each
 * printed as a table of status, endpoint and message (or all as JSON); the exit status is the
 * highest status found (2 informational, 3 warning, 4 critical, 6 insufficient permissions).
 */
export const pkiHealthCheckCommand = defineCommand({
  name: 'pki health-check',
  summary: 'Check a PKI mount against good practice: expiring issuers, roles, stored certificates.',
  usage: 'MOUNT',
  example: 'ward pki health-check -health-config=checks.json pki',
  description:
    'Checks: ca_validity_period, root_issued_leaves, role_allows_localhost, role_allows_glob_wildcards,\n' +
    'too_many_certs (-list prints their settings). -health-config is a JSON file {"check": {"enabled":\n' +
    'false, "setting": value}}. Exit status: 0 all passed, 2 informational, 3 warning, 4 critical,\n' +
    '6 insufficient permissions (the highest found, from -return-indicator up).',
  flags: {
    'health-config': flag.string('JSON file of check settings.'),
    'return-indicator': flag.string(
      'Lowest status that fails the run: default, informational, warning, critical, permission.',
      'default',
    ),
    'default-disabled': flag.bool('Run only the checks the configuration file enables.'),
    list: flag.bool('Print the checks and their default settings instead of running them.'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args: [mountArg] }, ctx) {
    const cutOff = CUT_OFFS.get(flags['return-indicator']);
    if (cutOff === undefined) {
      throw new UsageError(
        `invalid -return-indicator=${flags['return-indicator']}: default, informational, warning, critical or permission`,
      );
    }
    const enabledByDefault = !flags['default-disabled'];
    const defaults = new Map(CHECKS.map((c) => [c.name, { enabled: enabledByDefault, ...c.defaults }]));
    if (flags.list) {
      const listing = Object.fromEntries(defaults);
      ctx.out.text(`Default health check config:\n${JSON.stringify(listing, null, 2)}`, listing);
      return undefined;
    }
    if (mountArg === undefined) throw new UsageError('the pki MOUNT to check is required');
    const mount = trimSlashes(mountArg);
    if (mount.startsWith('auth/')) throw new UsageError('refusing to run the PKI health check on an auth mount');
    const configs = flags['health-config'] ? merge(defaults, await ctx.readFile(flags['health-config'])) : defaults;
    const mountType = (await ctx.client.read(`sys/mounts/${mount}`))?.data?.type;
    if (mountType !== 'pki')
      throw new CliError(`refusing to run the PKI health check on a mount of type ${String(mountType)}`, 2);
    const reader = new MountReader(ctx.client, mount);
    const results = new Map<string, Finding[]>();
    const nowMs = Date.now();
    for (const check of CHECKS) {
      const config = configs.get(check.name) ?? {};
      if (config.enabled !== true) continue;
      results.set(check.name, await runCheck(check, reader, config, nowMs));
    }
    if (ctx.out.format !== 'table') ctx.out.rows([], [], Object.fromEntries(results));
    else {
      for (const [name, findings] of results) {
        ctx.out.note(`${name}\n${'-'.repeat(name.length)}`);
        const rows = findings.map((f) => [f.status, f.endpoint, f.message]);
        ctx.out.rows(['status', 'endpoint', 'message'], rows, null);
        ctx.out.note('');
      }
    }
    const highest = Math.max(STATUS.not_applicable, ...[...results.values()].flat().map((f) => f.status_code));
    return highest >= cutOff ? highest : undefined;
  },
});

/** The defaults with the file's settings laid over them; an unknown check or setting is refused, as established. */
function merge(defaults: Map<string, CheckConfig>, text: string): Map<string, CheckConfig> {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`cannot parse the health check configuration: ${(err as Error).message}`);
  }
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    throw new UsageError('the health check configuration must be a JSON object of checks');
  }
  const merged = new Map([...defaults].map(([name, config]) => [name, { ...config }]));
  for (const [name, settings] of Object.entries(file)) {
    const config = merged.get(name);
    if (!config) continue;
    for (const [key, value] of Object.entries((settings ?? {}) as Record<string, unknown>)) {
      if (!(key in config)) throw new UsageError(`unknown setting for ${name}: ${key}`);
      config[key] = value;
    }
  }
  return merged;
}
