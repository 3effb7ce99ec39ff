import { writeFile } from 'node:fs/promises';
import { parseHcl } from '@ward/base';
import { CliError, defineCommand } from '../command.js';
import { formatPolicy } from '../policy-format.js';

/** `ward policy fmt FILE`: rewrites an HCL policy file in the canonical layout (after checking its syntax). */
export const policyFmtCommand = defineCommand({
  name: 'policy fmt',
  summary: 'Rewrite an HCL policy file in the canonical layout (indentation, aligned =); comments are kept.',
  usage: 'FILE',
  example: 'ward policy fmt app.hcl',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [file = ''] }, ctx) {
    const text = await ctx.readFile(file);
    try {
      parseHcl(text);
    } catch (err) {
      throw new CliError(`failed to parse policy ${file}: ${(err as Error).message}`, 1);
    }
    await writeFile(file, formatPolicy(text));
    ctx.out.success(`Formatted policy: ${file}`);
    return undefined;
  },
});
