import type { Command } from '../command.js';

/**
 * Commands of the established CLI that Ward does not have. Each answers one line saying why and
 * what to use instead (exit 1), so a copied script fails clearly instead of with "unknown command".
 */
const NOT_IN_WARD: ReadonlyMap<string, string> = new Map([
  ['agent', 'Ward has no agent mode; `ward proxy` does auto-auth, token sinks and the lease cache'],
  ['events', 'Ward has no event stream (sys/events)'],
  ['hcp', 'HCP is a hosted service of HashiCorp; Ward does not connect to it'],
  ['plugin', 'Ward runs no external plugins: every engine and auth method is built in (`ward secrets list -detailed`)'],
  ['transform', 'Ward has no transform engine'],
  ['version-history', 'Ward keeps no version history; `ward version` prints this build'],
  [
    'operator diagnose',
    'Ward checks its configuration when `ward server` starts and names every problem with its line',
  ],
  ['operator usage', 'Ward keeps no client-count activity log'],
  ['operator utilization', 'Ward keeps no utilization reports'],
]);

export function notInWardNames(): string[] {
  return [...NOT_IN_WARD.keys()];
}

export function notInWardCommand(name: string): Command {
  const reason = NOT_IN_WARD.get(name) ?? '';
  const text = `"ward ${name}" is not in Ward: ${reason}.`;
  return {
    name,
    summary: `Not in Ward (${reason.split(';')[0]}).`,
    help: () => `${text}\n`,
    flags: new Map(),
    async execute(_argv, { runtime }) {
      runtime.stderr.write(`Error: ${text}\n`);
      return 1;
    },
  };
}
