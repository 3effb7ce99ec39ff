import { COMMON_FLAGS_HELP, defineCommand, flag, noArgs, writeJson } from '../command.js';
import { keyValues } from '../format.js';

/** `ward-agent agent-info`: the agent's stats sections, as `/v1/agent/self` reports them. */
export const agentInfo = defineCommand({
  name: 'agent-info',
  summary: 'Show the agent’s runtime, Raft, gossip and client stats',
  help: `Usage: ward-agent agent-info [options]

  Shows the stats of the agent (sections runtime, nomad, raft, serf, client),
  for debugging.

Options:
  -json  Print the whole /v1/agent/self answer as JSON

Example:
  NOMAD_ADDR=http://127.0.0.1:4646 ward-agent agent-info
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const self = await ctx.api.get<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self');
    if (flags.json) {
      writeJson(ctx, self);
      return 0;
    }
    for (const section of Object.keys(self.stats).sort()) {
      const pairs = Object.entries(self.stats[section] ?? {}).sort(([a], [b]) => a.localeCompare(b));
      ctx.out.write(`${section}\n${keyValues(pairs, '  ')}`);
    }
    return 0;
  },
});
