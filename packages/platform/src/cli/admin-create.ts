import { parseArgs } from 'node:util';
import { type Clock, cryptoRandom, type Random } from '@ward/base';
import { EMAIL_PATTERN, NAME_PATTERN } from '../api/input.js';
import { openStore } from '../store/index.js';
import { CliError } from './exit-error.js';
import { goStyleArgs } from './go-style-args.js';
import { DATABASE_URL_ENV, storeLocation } from './serve-options.js';

export const ADMIN_CREATE_USAGE = `Usage: ward-platform admin create (--db PATH | --database-url URL) --username NAME --email EMAIL

  Adds a site administrator to the database (the server may be running on it) and prints the
  one API token it gets. Without --dev the server has no users; this makes the first one.
`;

/** `ward-platform admin create`: returns the lines to print. */
export async function adminCreate(
  argv: string[],
  deps: { clock: Clock; random?: Random; env: NodeJS.ProcessEnv },
): Promise<string[]> {
  let values: { db?: string; 'database-url'?: string; username?: string; email?: string };
  try {
    values = parseArgs({
      args: goStyleArgs(argv),
      strict: true,
      options: {
        db: { type: 'string' },
        'database-url': { type: 'string' },
        username: { type: 'string' },
        email: { type: 'string' },
      },
    }).values;
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${ADMIN_CREATE_USAGE}`, 2);
  }
  const { username, email } = values;
  const location = storeLocation(values.db, values['database-url'] ?? deps.env[DATABASE_URL_ENV]);
  if (!location || !username || !email) {
    throw new CliError(`--db or --database-url, --username and --email are required\n\n${ADMIN_CREATE_USAGE}`, 2);
  }
  if (!NAME_PATTERN.test(username)) throw new CliError('--username may hold only letters, digits, "-" and "_"', 2);
  if (!EMAIL_PATTERN.test(email)) throw new CliError('--email is not an email address', 2);
  const store = await openStore(location, deps.random ?? cryptoRandom);
  try {
    return await store.transaction(async (tx) => {
      if (await tx.users.byUsername(username)) throw new CliError(`a user named ${username} already exists`);
      const nowMs = deps.clock.now();
      const user = await tx.users.create({ username, email, isSiteAdmin: true, nowMs });
      const { secret } = await tx.tokens.createUserToken({
        userId: user.id,
        description: 'admin create',
        expiredAtMs: null,
        nowMs,
      });
      return [`Created site administrator ${username} (${user.id})`, `API token: ${secret}`];
    });
  } finally {
    await store.close();
  }
}
