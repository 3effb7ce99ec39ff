import { UsageError } from './flags.js';

/** The one positional key share of `operator rekey|generate-root`; `-` reads it from stdin. */
export async function shareArgument(args: string[], readStdin: () => Promise<string>): Promise<string> {
  const [arg] = args;
  if (arg === undefined) throw new UsageError('a key share is required (or - to read it from stdin)');
  return arg === '-' ? (await readStdin()).trim() : arg;
}
