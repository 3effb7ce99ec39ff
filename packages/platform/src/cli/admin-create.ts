import { parseArgs } from 'node:util';
import { type Clock, cryptoRandom, type Random } from '@ward/base';
import { EMAIL_PATTERN, NAME_PATTERN } from '../api/input.js';
import { openStore } from '../store/index.js';
import { CliError } from './exit-error.js';
import { goStyleArgs } from './go-style-args.js';

export const ADMIN_CREATE_USAGE = `Usage: ward-platform admin create --db PATH --username NAME --email EMAIL

  Adds a site administrator to the database (the server may be running on it) and prints the
  one API token it gets. Without --dev the server has no users; this makes the first one.
`;

/** `ward-platform admin create`: returns the lines to print. */
export function adminCreate(argv: string[], deps: { clock: Clock; random?: Random }): string[] {
  let values: { db?: string; username?: string; email?: string };
  try {
    values = parseArgs({
      args: goStyleArgs(argv),
      strict: true,
      options: { db: { type: 'string' }, username: { type: 'string' }, email: { type: 'string' } },
    }).values;
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${ADMIN_CREATE_USAGE}`, 2);
  }
  const { db, username, email } = values;
  if (!db || !username || !email)
    throw new CliError(`--db, --username and --email are required\n\n${ADMIN_CREATE_USAGE}`, 2);
  if (!NAME_PATTERN.test(username)) throw new CliError('--username may hold only letters, digits, "-" and "_"', 2);
  if (!EMAIL_PATTERN.test(email)) throw new CliError('--email is not an email address', 2);
  const store = openStore(db, deps.random ?? cryptoRandom);
  try {
    return store.transaction(() => {
      if (store.users.byUsername(username)) throw new CliError(`a user named ${username} already exists`);
      const nowMs = deps.clock.now();
      const user = store.users.create({ username, email, isSiteAdmin: true, nowMs });
      const { secret } = store.tokens.createUserToken({
        userId: user.id,
        description: 'admin create',
        expiredAtMs: null,
        nowMs,
      });
      return [`Created site administrator ${username} (${user.id})`, `API token: ${secret}`];
    });
  } finally {
    store.close();
  }
}
