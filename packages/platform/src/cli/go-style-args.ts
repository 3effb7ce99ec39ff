/**
 * Lets every flag be written the established single-dash way (`-listen=…`, `-db PATH`) as well
 * as `--listen`: node's parser reads `-listen` as the short flags l, i, s…, so a single-dash
 * word is given its second dash first. Everything after `--` is left alone.
 */
export function goStyleArgs(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((arg, i) => ((end === -1 || i < end) && /^-[a-z][a-z0-9-]+(=|$)/.test(arg) ? `-${arg}` : arg));
}

/** Whether the user asked for help (`-h`, `-help`, `--help`) anywhere before `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === '-help' || a === '--help');
}
