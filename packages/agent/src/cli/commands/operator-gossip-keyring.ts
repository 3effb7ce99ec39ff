import { cryptoRandom, UsageError } from '@ward/base';
import type { KeyringResponse } from '../../api-types.js';
import { generateGossipKey } from '../../gossip/keyring.js';
import { COMMON_FLAGS_HELP, type Command, defineCommand, noArgs } from '../command.js';

const SERVERS_NOTE = `  The operation runs on every live server of the region (the agent asked forwards it);
  it exits 0 when all of them did it, 1 otherwise. With ACLs on, it needs agent:write.`;

function oneKey(args: readonly string[]): string {
  if (args.length !== 1) throw new UsageError('This command takes one argument: <key>');
  return args[0] as string;
}

function change(op: 'install' | 'use' | 'remove', doing: string, what: string): Command {
  return defineCommand({
    name: `operator gossip keyring ${op}`,
    summary: what,
    help: `Usage: ward-agent operator gossip keyring ${op} [options] <key>

  ${what}.
${SERVERS_NOTE}

Example:
  ward-agent operator gossip keyring ${op} HD5Y61iE+neTxd1n6TnXhCPViPIUq5QpWq8WW8012XA=
${COMMON_FLAGS_HELP}`,
    flags: {},
    async run({ args }, ctx) {
      const key = oneKey(args);
      ctx.out.write(`${doing} gossip encryption key...\n`);
      await ctx.api.put(`/v1/agent/keyring/${op}`, { Key: key });
      return 0;
    },
  });
}

export const gossipKeyringInstall = change(
  'install',
  'Installing new',
  'Install a new gossip key on every server (it decrypts at once; `use` makes it encrypt)',
);
export const gossipKeyringUse = change(
  'use',
  'Changing primary',
  'Make an installed gossip key the one every server encrypts with',
);
export const gossipKeyringRemove = change(
  'remove',
  'Removing',
  'Remove a gossip key that is not the primary from every server',
);

export const gossipKeyringList = defineCommand({
  name: 'operator gossip keyring list',
  summary: 'List the gossip keys installed on the servers',
  help: `Usage: ward-agent operator gossip keyring list [options]

  Lists every gossip key installed on the servers, as the established CLI prints them
  (GET /v1/agent/keyring/list also says how many servers hold each).
${SERVERS_NOTE}

Example:
  ward-agent operator gossip keyring list
${COMMON_FLAGS_HELP}`,
  flags: {},
  async run({ args }, ctx) {
    noArgs(args);
    ctx.out.write('Gathering installed encryption keys...\n');
    const r = await ctx.api.get<KeyringResponse>('/v1/agent/keyring/list');
    ctx.out.write('Key\n');
    for (const key of Object.keys(r.Keys)) ctx.out.write(`${key}\n`);
    return 0;
  },
});

export const gossipKeyringGenerate = defineCommand({
  name: 'operator gossip keyring generate',
  summary: 'Print a new gossip key (for encrypt or keyring install)',
  help: `Usage: ward-agent operator gossip keyring generate

  Prints a new random 32-byte gossip key, base64-encoded, for \`server { encrypt }\`,
  \`-encrypt\` or \`operator gossip keyring install\`. Talks to no agent.

Example:
  ward-agent operator gossip keyring generate
${COMMON_FLAGS_HELP}`,
  flags: {},
  async run({ args }, ctx) {
    noArgs(args);
    ctx.out.write(`${generateGossipKey(cryptoRandom)}\n`);
    return 0;
  },
});
