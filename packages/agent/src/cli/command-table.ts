import { CommandTable } from '@ward/base';
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

/** Every API command of `ward-agent`, in the order the usage lists them: one line per command. */
export const COMMAND_LIST: readonly Command[] = [
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
];

/** The same, by the words that select each. */
export const COMMANDS = new CommandTable<Command>(COMMAND_LIST.map((c) => [c.name, () => c]));
