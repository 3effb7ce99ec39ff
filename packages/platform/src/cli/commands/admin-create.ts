import { CliError, durationMs, flag, UsageError } from '@ward/base';
import { EMAIL_PATTERN, NAME_PATTERN } from '../../api/input.js';
import { openStore } from '../../store/index.js';
import { defineCommand } from '../command.js';
import { DATABASE_URL_ENV, storeLocation } from '../serve-options.js';

const ADMIN_CREATE_USAGE = `Usage: ward-platform admin create (-db=PATH | -database-url=URL) -username=NAME -email=EMAIL [-token-ttl=DURATION]

  Adds a site administrator to the database (the server may be running on it) and prints the
  one API token it gets. Without -dev the server has no users; this makes the first one.

  -token-ttl=DURATION  the token expires this long after now (e.g. 720h, 30m); default: never

Example:
  ward-platform admin create -db=ward-platform.db -username=ops -email=ops@example.com -token-ttl=720h
`;

/** `ward-platform admin create`: prints the new administrator and its token. */
export const adminCreateCommand = defineCommand({
  name: 'admin create',
  summary: 'add a site administrator and print its API token',
  flags: {
    db: flag.string(),
    'database-url': flag.string(),
    username: flag.string(),
    email: flag.string(),
    'token-ttl': flag.duration(),
  },
  help: ADMIN_CREATE_USAGE,
  async run({ flags, args }, io) {
    if (args.length > 0) throw new UsageError(`unexpected argument: ${args[0]}`);
    const { username, email, 'token-ttl': ttl } = flags;
    const location = storeLocation(flags.db, flags['database-url'] ?? io.env[DATABASE_URL_ENV]);
    if (!location || !username || !email)
      throw new UsageError('-db or -database-url, -username and -email are required');
    if (!NAME_PATTERN.test(username)) throw new UsageError('-username may hold only letters, digits, "-" and "_"');
    if (!EMAIL_PATTERN.test(email)) throw new UsageError('-email is not an email address');
    if (ttl === 0n)
      throw new UsageError('-token-ttl must be longer than 0s (leave it out for a token that never expires)');
    const store = await openStore(location, io.random);
    let lines: string[];
    try {
      lines = await store.transaction(async (tx) => {
        if (await tx.users.byUsername(username)) throw new CliError(`a user named ${username} already exists`);
        const nowMs = io.clock.now();
        const expiredAtMs = ttl === undefined ? null : nowMs + Math.ceil(durationMs(ttl));
        const user = await tx.users.create({ username, email, isSiteAdmin: true, nowMs });
        const { secret } = await tx.tokens.createUserToken({
          userId: user.id,
          description: 'admin create',
          expiredAtMs,
          nowMs,
        });
        const expiry = expiredAtMs === null ? [] : [`Token expires: ${new Date(expiredAtMs).toISOString()}`];
        return [`Created site administrator ${username} (${user.id})`, `API token: ${secret}`, ...expiry];
      });
    } finally {
      await store.close();
    }
    for (const line of lines) io.stdout.write(`${line}\n`);
    return 0;
  },
});
