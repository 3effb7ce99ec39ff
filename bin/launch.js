// Shared by the three launchers: a checkout that was never built says what to do, instead of
// printing a module-not-found stack trace.
import { existsSync } from 'node:fs';

/** Imports `entry` (a file URL of compiled code) or exits 1 with a one-line hint when it is missing. */
export async function launch(entry, binary) {
  if (!existsSync(entry)) {
    process.stderr.write(`${binary}: this checkout is not built; run \`npm run build\` first\n`);
    process.exit(1);
  }
  return import(entry.href);
}
