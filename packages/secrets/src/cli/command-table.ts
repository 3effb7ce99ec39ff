import type { Command } from './command.js';

/**
 * Every command by name → a loader. Loading on demand keeps `ward status` from importing
 * the whole server, which only `ward server` needs.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  server: async () => (await import('./commands/server-command.js')).serverCommand,
  proxy: async () => (await import('./commands/proxy.js')).proxyCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  'operator init': async () => (await import('./commands/operator-init.js')).operatorInitCommand,
  'operator unseal': async () => (await import('./commands/operator-unseal.js')).operatorUnsealCommand,
  'operator seal': async () => (await import('./commands/operator-seal.js')).operatorSealCommand,
  'operator rekey': async () => (await import('./commands/operator-rekey.js')).operatorRekeyCommand,
  'operator generate-root': async () =>
    (await import('./commands/operator-generate-root.js')).operatorGenerateRootCommand,
  login: async () => (await import('./commands/login.js')).loginCommand,
  'token create': async () => (await import('./commands/token-create.js')).tokenCreateCommand,
  'token lookup': async () => (await import('./commands/token-lookup.js')).tokenLookupCommand,
  'token renew': async () => (await import('./commands/token-renew.js')).tokenRenewCommand,
  'token revoke': async () => (await import('./commands/token-revoke.js')).tokenRevokeCommand,
  read: async () => (await import('./commands/read.js')).readCommand,
  write: async () => (await import('./commands/write.js')).writeCommand,
  list: async () => (await import('./commands/list.js')).listCommand,
  delete: async () => (await import('./commands/delete.js')).deleteCommand,
  'kv get': async () => (await import('./commands/kv-get.js')).kvGetCommand,
  'kv put': async () => (await import('./commands/kv-put.js')).kvPutCommand,
  'kv list': async () => (await import('./commands/kv-list.js')).kvListCommand,
  'kv delete': async () => (await import('./commands/kv-delete.js')).kvDeleteCommand,
  'kv metadata get': async () => (await import('./commands/kv-metadata-get.js')).kvMetadataGetCommand,
  'kv metadata delete': async () => (await import('./commands/kv-metadata-delete.js')).kvMetadataDeleteCommand,
  'secrets enable': async () => (await import('./commands/secrets-enable.js')).secretsEnableCommand,
  'secrets disable': async () => (await import('./commands/secrets-disable.js')).secretsDisableCommand,
  'secrets list': async () => (await import('./commands/secrets-list.js')).secretsListCommand,
  'secrets tune': async () => (await import('./commands/secrets-tune.js')).secretsTuneCommand,
  'auth enable': async () => (await import('./commands/auth-enable.js')).authEnableCommand,
  'auth disable': async () => (await import('./commands/auth-disable.js')).authDisableCommand,
  'auth list': async () => (await import('./commands/auth-list.js')).authListCommand,
  'policy write': async () => (await import('./commands/policy-write.js')).policyWriteCommand,
  'policy read': async () => (await import('./commands/policy-read.js')).policyReadCommand,
  'policy list': async () => (await import('./commands/policy-list.js')).policyListCommand,
  'policy delete': async () => (await import('./commands/policy-delete.js')).policyDeleteCommand,
  'namespace create': async () => (await import('./commands/namespace-create.js')).namespaceCreateCommand,
  'namespace list': async () => (await import('./commands/namespace-list.js')).namespaceListCommand,
  'namespace delete': async () => (await import('./commands/namespace-delete.js')).namespaceDeleteCommand,
  'path-help': async () => (await import('./commands/path-help.js')).pathHelpCommand,
};

/** The longest command name made of the first words of `argv` (at most three): its loader and word count. */
export function findCommand(argv: string[]): { load: () => Promise<Command>; words: number } | undefined {
  for (let n = Math.min(3, argv.length); n >= 1; n--) {
    const load = COMMANDS[argv.slice(0, n).join(' ')];
    if (load) return { load, words: n };
  }
  return undefined;
}

/** The commands of a group (`kv` → `kv get`, `kv put`, …), for the usage text. */
export function commandsUnder(prefix: string): string[] {
  return Object.keys(COMMANDS).filter((n) => n.startsWith(`${prefix} `));
}
