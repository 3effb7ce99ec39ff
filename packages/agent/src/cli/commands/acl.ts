import { readFile } from 'node:fs/promises';
import { UsageError } from '@ward/base';
import type { TokenRecord } from '../../acl/store.js';
import type { PolicyListStub } from '../../api-types.js';
import { splitCommas } from '../../config/flags.js';
import { COMMON_FLAGS_HELP, type CommandContext, defineCommand, flag, noArgs, writeJson } from '../command.js';
import { columns, keyValues } from '../format.js';

type PublicToken = Omit<TokenRecord, 'SecretID'> & { SecretID?: string };

function printToken(ctx: CommandContext, t: PublicToken, json: boolean): void {
  if (json) {
    writeJson(ctx, t);
    return;
  }
  ctx.out.write(
    keyValues([
      ['Accessor ID', t.AccessorID],
      ['Secret ID', t.SecretID ?? ''],
      ['Name', t.Name],
      ['Type', t.Type],
      ['Global', String(t.Global)],
      ['Policies', t.Type === 'management' ? 'n/a' : `[${t.Policies.join(' ')}]`],
      ['Create Time', t.CreateTime],
      ['Create Index', String(t.CreateIndex)],
      ['Modify Index', String(t.ModifyIndex)],
    ]),
  );
}

export const aclBootstrap = defineCommand({
  name: 'acl bootstrap',
  summary: 'Create the initial management token (once per cluster)',
  help: `Usage: ward-agent acl bootstrap [options]

  Creates the cluster's first management token. Works once; afterwards the
  agent answers 400 "ACL bootstrap already done".

Options:
  -json  Print the token as JSON

Example:
  ward-agent acl bootstrap
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const token = await ctx.api.put<PublicToken>('/v1/acl/bootstrap', {});
    if (token) printToken(ctx, token, flags.json);
    return 0;
  },
});

export const aclPolicyApply = defineCommand({
  name: 'acl policy apply',
  summary: 'Create or update an ACL policy from a rules file',
  help: `Usage: ward-agent acl policy apply [options] <name> <path>

  Creates or updates the policy <name> with the HCL rules in <path> ("-" reads
  standard input). Needs a management token.

Options:
  -description=<text>  The policy's description

Example:
  ward-agent acl policy apply -description="read the pool" readers readers.hcl
${COMMON_FLAGS_HELP}`,
  flags: { description: flag.string() },
  async run({ flags, args }, ctx) {
    if (args.length !== 2) throw new UsageError('This command takes two arguments: <name> and <path>');
    const [name, path] = args as [string, string];
    let rules: string;
    try {
      rules = path === '-' ? await readStdin() : await readFile(path, 'utf8');
    } catch (err) {
      ctx.err.write(`Error reading policy file: ${(err as Error).message}\n`);
      return 1;
    }
    await ctx.api.put(`/v1/acl/policy/${encodeURIComponent(name)}`, {
      Name: name,
      Description: flags.description ?? '',
      Rules: rules,
    });
    ctx.out.write(`Successfully wrote "${name}" ACL policy!\n`);
    return 0;
  },
});

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const aclTokenCreate = defineCommand({
  name: 'acl token create',
  summary: 'Create an ACL token',
  help: `Usage: ward-agent acl token create [options]

  Creates a token. Needs a management token.

Options:
  -name=<name>      A name for the token
  -type=<type>      client (default) or management
  -policy=<name>    A policy of the token; repeatable (client tokens need one)
  -global           Mark the token global
  -json             Print the token as JSON

Example:
  ward-agent acl token create -name=ops -policy=readers -policy=operators
${COMMON_FLAGS_HELP}`,
  flags: { name: flag.string(), type: flag.string(), policy: flag.list(), global: flag.bool(), json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const type = flags.type ?? 'client';
    if (type !== 'client' && type !== 'management') throw new UsageError('-type must be client or management');
    const token = await ctx.api.put<PublicToken>('/v1/acl/token', {
      Name: flags.name ?? '',
      Type: type,
      Policies: splitCommas(flags.policy),
      Global: flags.global,
    });
    if (token) printToken(ctx, token, flags.json);
    return 0;
  },
});

export const aclTokenList = defineCommand({
  name: 'acl token list',
  summary: 'List ACL tokens (without their secrets)',
  help: `Usage: ward-agent acl token list [options]

  Lists the tokens. Needs a management token.

Options:
  -json  Print the list as JSON

Example:
  ward-agent acl token list
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const tokens = await ctx.api.get<PublicToken[]>('/v1/acl/tokens');
    if (flags.json) {
      writeJson(ctx, tokens);
      return 0;
    }
    const rows = tokens.map((t) => [t.Name, t.Type, String(t.Global), t.AccessorID, 'false']);
    ctx.out.write(columns([['Name', 'Type', 'Global', 'Accessor ID', 'Expired'], ...rows]));
    return 0;
  },
});

export const aclPolicyList = defineCommand({
  name: 'acl policy list',
  summary: 'List ACL policies',
  help: `Usage: ward-agent acl policy list [options]

  Lists the ACL policies (name and description). Needs a management token.

Options:
  -json  Print the policies as JSON

Example:
  ward-agent acl policy list
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const policies = await ctx.api.get<PolicyListStub[]>('/v1/acl/policies');
    if (flags.json) {
      writeJson(ctx, policies);
      return 0;
    }
    if (policies.length === 0) {
      ctx.out.write('No policies found\n');
      return 0;
    }
    ctx.out.write(columns([['Name', 'Description'], ...policies.map((p) => [p.Name, p.Description ?? ''])]));
    return 0;
  },
});

export const aclTokenSelf = defineCommand({
  name: 'acl token self',
  summary: 'Show the token in use',
  help: `Usage: ward-agent acl token self [options]

  Shows the token given with -token (or WARD_AGENT_TOKEN, NOMAD_TOKEN).

Options:
  -json  Print the token as JSON

Example:
  ward-agent acl token self -token=<secret>
${COMMON_FLAGS_HELP}`,
  flags: { json: flag.bool() },
  async run({ flags, args }, ctx) {
    noArgs(args);
    printToken(ctx, await ctx.api.get<PublicToken>('/v1/acl/token/self'), flags.json);
    return 0;
  },
});
