import { CommandTable } from '@ward/base';
import { closest, distance } from 'fastest-levenshtein';
import type { Command } from './command.js';
import { notInWardNames } from './commands/not-in-ward.js';

/** Every command by name → its loader: adding a command is its file in commands/ and one line here. */
const COMMANDS = new CommandTable<Command>([
  ['server', async () => (await import('./commands/server-command.js')).serverCommand],
  ['proxy', async () => (await import('./commands/proxy.js')).proxyCommand],
  ['completion', async () => (await import('./commands/completion.js')).completionCommand],
  ['status', async () => (await import('./commands/status.js')).statusCommand],
  ['monitor', async () => (await import('./commands/monitor.js')).monitorCommand],
  ['debug', async () => (await import('./commands/debug.js')).debugCommand],
  ['operator init', async () => (await import('./commands/operator-init.js')).operatorInitCommand],
  ['operator seal', async () => (await import('./commands/operator-seal.js')).operatorSealCommand],
  ['operator rekey', async () => (await import('./commands/operator-rekey.js')).operatorRekeyCommand],
  [
    'operator generate-root',
    async () => (await import('./commands/operator-generate-root.js')).operatorGenerateRootCommand,
  ],
  [
    'operator raft snapshot save',
    async () => (await import('./commands/operator-raft-snapshot-save.js')).operatorRaftSnapshotSaveCommand,
  ],
  [
    'operator raft snapshot restore',
    async () => (await import('./commands/operator-raft-snapshot-restore.js')).operatorRaftSnapshotRestoreCommand,
  ],
  ['operator migrate', async () => (await import('./commands/operator-migrate.js')).operatorMigrateCommand],
  ['operator unseal', async () => (await import('./commands/operator-unseal.js')).operatorUnsealCommand],
  ['login', async () => (await import('./commands/login.js')).loginCommand],
  ['token capabilities', async () => (await import('./commands/token-capabilities.js')).tokenCapabilitiesCommand],
  ['token create', async () => (await import('./commands/token-create.js')).tokenCreateCommand],
  ['token lookup', async () => (await import('./commands/token-lookup.js')).tokenLookupCommand],
  ['token renew', async () => (await import('./commands/token-renew.js')).tokenRenewCommand],
  ['token revoke', async () => (await import('./commands/token-revoke.js')).tokenRevokeCommand],
  ['read', async () => (await import('./commands/read.js')).readCommand],
  ['write', async () => (await import('./commands/write.js')).writeCommand],
  ['list', async () => (await import('./commands/list.js')).listCommand],
  ['delete', async () => (await import('./commands/delete.js')).deleteCommand],
  ['kv delete', async () => (await import('./commands/kv-delete.js')).kvDeleteCommand],
  ['kv destroy', async () => (await import('./commands/kv-destroy.js')).kvDestroyCommand],
  ['kv enable-versioning', async () => (await import('./commands/kv-enable-versioning.js')).kvEnableVersioningCommand],
  ['kv get', async () => (await import('./commands/kv-get.js')).kvGetCommand],
  ['kv list', async () => (await import('./commands/kv-list.js')).kvListCommand],
  ['kv metadata delete', async () => (await import('./commands/kv-metadata-delete.js')).kvMetadataDeleteCommand],
  ['kv metadata get', async () => (await import('./commands/kv-metadata-get.js')).kvMetadataGetCommand],
  ['kv metadata put', async () => (await import('./commands/kv-metadata-put.js')).kvMetadataPutCommand],
  ['kv patch', async () => (await import('./commands/kv-patch.js')).kvPatchCommand],
  ['kv put', async () => (await import('./commands/kv-put.js')).kvPutCommand],
  ['kv rollback', async () => (await import('./commands/kv-rollback.js')).kvRollbackCommand],
  ['kv undelete', async () => (await import('./commands/kv-undelete.js')).kvUndeleteCommand],
  ['secrets disable', async () => (await import('./commands/secrets-disable.js')).secretsDisableCommand],
  ['secrets enable', async () => (await import('./commands/secrets-enable.js')).secretsEnableCommand],
  ['secrets list', async () => (await import('./commands/secrets-list.js')).secretsListCommand],
  ['secrets move', async () => (await import('./commands/secrets-move.js')).secretsMoveCommand],
  ['secrets tune', async () => (await import('./commands/secrets-tune.js')).secretsTuneCommand],
  ['auth disable', async () => (await import('./commands/auth-disable.js')).authDisableCommand],
  ['auth enable', async () => (await import('./commands/auth-enable.js')).authEnableCommand],
  ['auth list', async () => (await import('./commands/auth-list.js')).authListCommand],
  ['auth move', async () => (await import('./commands/auth-move.js')).authMoveCommand],
  ['auth help', async () => (await import('./commands/auth-help.js')).authHelpCommand],
  ['auth tune', async () => (await import('./commands/auth-tune.js')).authTuneCommand],
  ['policy delete', async () => (await import('./commands/policy-delete.js')).policyDeleteCommand],
  ['policy fmt', async () => (await import('./commands/policy-fmt.js')).policyFmtCommand],
  ['policy list', async () => (await import('./commands/policy-list.js')).policyListCommand],
  ['policy read', async () => (await import('./commands/policy-read.js')).policyReadCommand],
  ['policy write', async () => (await import('./commands/policy-write.js')).policyWriteCommand],
  ['namespace create', async () => (await import('./commands/namespace-create.js')).namespaceCreateCommand],
  ['namespace delete', async () => (await import('./commands/namespace-delete.js')).namespaceDeleteCommand],
  ['namespace list', async () => (await import('./commands/namespace-list.js')).namespaceListCommand],
  ['namespace lookup', async () => (await import('./commands/namespace-lookup.js')).namespaceLookupCommand],
  ['namespace patch', async () => (await import('./commands/namespace-patch.js')).namespacePatchCommand],
  ['path-help', async () => (await import('./commands/path-help.js')).pathHelpCommand],
  ['version', async () => (await import('./commands/version.js')).versionCommand],
  ['audit disable', async () => (await import('./commands/audit-disable.js')).auditDisableCommand],
  ['audit enable', async () => (await import('./commands/audit-enable.js')).auditEnableCommand],
  ['audit list', async () => (await import('./commands/audit-list.js')).auditListCommand],
  ['lease lookup', async () => (await import('./commands/lease-lookup.js')).leaseLookupCommand],
  ['lease renew', async () => (await import('./commands/lease-renew.js')).leaseRenewCommand],
  ['lease revoke', async () => (await import('./commands/lease-revoke.js')).leaseRevokeCommand],
  ['unwrap', async () => (await import('./commands/unwrap.js')).unwrapCommand],
  ['ssh', async () => (await import('./commands/ssh.js')).sshCommand],
  ['pki health-check', async () => (await import('./commands/pki-health-check.js')).pkiHealthCheckCommand],
  ['pki reissue', async () => (await import('./commands/pki-reissue.js')).pkiReissueCommand],
  ['pki issue', async () => (await import('./commands/pki-issue.js')).pkiIssueCommand],
  ['pki verify-sign', async () => (await import('./commands/pki-verify-sign.js')).pkiVerifySignCommand],
  [
    'pki list-intermediates',
    async () => (await import('./commands/pki-list-intermediates.js')).pkiListIntermediatesCommand,
  ],
  ['transit import', async () => (await import('./commands/transit-import.js')).transitImportCommand],
  ['transit import-version', async () => (await import('./commands/transit-import.js')).transitImportVersionCommand],
  ['print token', async () => (await import('./commands/print-token.js')).printTokenCommand],
  ['patch', async () => (await import('./commands/patch.js')).patchCommand],
  ['kv metadata patch', async () => (await import('./commands/kv-metadata-patch.js')).kvMetadataPatchCommand],
  ['operator step-down', async () => (await import('./commands/operator-step-down.js')).operatorStepDownCommand],
  ['operator key-status', async () => (await import('./commands/operator-key-status.js')).operatorKeyStatusCommand],
  ['operator rotate', async () => (await import('./commands/operator-rotate.js')).operatorRotateCommand],
  ['operator members', async () => (await import('./commands/operator-members.js')).operatorMembersCommand],
  [
    'operator raft list-peers',
    async () => (await import('./commands/operator-raft-list-peers.js')).operatorRaftListPeersCommand,
  ],
  ...notInWardNames().map(
    (name) => [name, async () => (await import('./commands/not-in-ward.js')).notInWardCommand(name)] as const,
  ),
]);

/** The longest command name made of the first words of `argv`: its loader and word count. */
export function findCommand(argv: string[]): { load: () => Promise<Command>; words: number } | undefined {
  return COMMANDS.find(argv);
}

/** The commands of a group (`kv` → `kv get`, `kv put`, …), for the usage text. */
export function commandsUnder(prefix: string): string[] {
  return COMMANDS.under(prefix);
}

/** Every command name, in table order (for the usage text and shell completion). */
export function commandNames(): string[] {
  return COMMANDS.names();
}

/** Words in the longest command name (`operator raft snapshot save`). */
const MAX_COMMAND_WORDS = 4;

/**
 * The command a mistyped one most likely meant: the nearest name (or group) by edit distance,
 * when it is close enough to be a typo rather than another word.
 */
export function suggestCommand(words: string[]): string | undefined {
  const names = COMMANDS.names();
  const candidates = [...new Set([...names, ...names.map((n) => n.split(' ')[0] as string)])];
  // Longest first: `kv gte secret/x` is `kv get` with an argument, not a three-word command.
  for (let n = Math.min(MAX_COMMAND_WORDS, words.length); n >= 1; n--) {
    const typed = words.slice(0, n).join(' ');
    const best = closest(typed, candidates);
    if (distance(typed, best) <= Math.max(2, Math.floor(typed.length / 3))) return best;
  }
  return undefined;
}
