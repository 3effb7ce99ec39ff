import type { Command } from './command.js';
import {
  aclBootstrap,
  aclPolicyApply,
  aclPolicyList,
  aclTokenCreate,
  aclTokenList,
  aclTokenSelf,
} from './commands/acl.js';
import { agentInfo } from './commands/agent-info.js';
import { monitorCommand } from './commands/monitor.js';
import { nodeStatus } from './commands/node-status.js';
import { operatorDebug } from './commands/operator-debug.js';
import {
  gossipKeyringGenerate,
  gossipKeyringInstall,
  gossipKeyringList,
  gossipKeyringRemove,
  gossipKeyringUse,
} from './commands/operator-gossip-keyring.js';
import { operatorRaftListPeers } from './commands/operator-raft.js';
import { serverForceLeave, serverJoin } from './commands/server-join.js';
import { serverMembers } from './commands/server-members.js';
import { statusCommand } from './commands/status.js';

/** Every API command of `ward-agent`, by the words that select it. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map(
  [
    serverMembers,
    serverJoin,
    serverForceLeave,
    statusCommand,
    nodeStatus,
    agentInfo,
    monitorCommand,
    aclBootstrap,
    aclPolicyApply,
    aclPolicyList,
    aclTokenCreate,
    aclTokenList,
    aclTokenSelf,
    operatorDebug,
    operatorRaftListPeers,
    gossipKeyringList,
    gossipKeyringInstall,
    gossipKeyringUse,
    gossipKeyringRemove,
    gossipKeyringGenerate,
  ].map((c) => [c.name, c]),
);

/** The command named by the leading words of `argv` (longest match), and the words after it. */
export function findCommand(argv: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (let n = Math.min(4, argv.length); n > 0; n--) {
    const command = COMMANDS.get(argv.slice(0, n).join(' '));
    if (command) return { command, rest: argv.slice(n) };
  }
  return undefined;
}

/**
 * The commands under the longest group the words name (`acl token`, then `acl`), for
 * the message about an unknown command; empty when no group matches.
 */
export function commandsUnder(words: readonly string[]): Command[] {
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const p = words.slice(0, n).join(' ');
    const under = [...COMMANDS.values()].filter((c) => c.name.startsWith(`${p} `));
    if (under.length > 0) return under;
  }
  return [];
}
