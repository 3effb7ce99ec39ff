import { COMMON_FLAGS_HELP, defineCommand, flag, noArgs } from '../command.js';

/** `ward-agent monitor`: streams the agent's log lines until interrupted. */
export const monitorCommand = defineCommand({
  name: 'monitor',
  summary: 'Stream the logs of an agent',
  help: `Usage: ward-agent monitor [options]

  Streams log lines of the agent (or of the server or client named) until
  interrupted with Ctrl-C.

Options:
  -log-level=<level>  trace, debug, info (default), warn or error
  -json               Log lines as JSON
  -server-id=<id>     Stream from this server (name, or "leader")
  -node-id=<id>       Stream from this client node

Example:
  ward-agent monitor -log-level=debug -server-id=leader
${COMMON_FLAGS_HELP}`,
  flags: { 'log-level': flag.logLevel(), json: flag.bool(), 'server-id': flag.string(), 'node-id': flag.string() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const q = new URLSearchParams({ log_level: flags['log-level'] ?? 'info', plain: 'true' });
    if (flags.json) q.set('log_json', 'true');
    if (flags['server-id'] ?? '') q.set('server_id', flags['server-id'] ?? '');
    if (flags['node-id'] ?? '') q.set('node_id', flags['node-id'] ?? '');
    const res = await ctx.api.request('GET', `/v1/agent/monitor?${q}`, undefined, ctx.signal);
    try {
      for await (const chunk of res.body ?? []) ctx.out.write(chunk);
    } catch (err) {
      // Ctrl-C aborts the request: that is the normal way out.
      if (!ctx.signal.aborted) throw err;
    }
    return 0;
  },
});
