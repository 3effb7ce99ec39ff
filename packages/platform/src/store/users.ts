import type { Random } from '@ward/base';
import type { Db } from './database.js';
import { newId } from './ids.js';
import type { UserRow } from './records.js';

export class UserStore {
  readonly #insert;
  readonly #byId;
  readonly #byUsername;
  readonly #byEmail;

  constructor(
    db: Db,
    private readonly random: Random,
  ) {
    this.#insert = db.prepare(
      'INSERT INTO users (id, username, email, is_site_admin, created_at) VALUES (@id, @username, @email, @is_site_admin, @created_at)',
    );
    this.#byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
    this.#byUsername = db.prepare<[string], UserRow>('SELECT * FROM users WHERE username = ?');
    this.#byEmail = db.prepare<[string], UserRow>(
      'SELECT * FROM users WHERE email = ? COLLATE NOCASE ORDER BY created_at',
    );
  }

  create(input: { username: string; email: string; isSiteAdmin: boolean; nowMs: number }): UserRow {
    const row: UserRow = {
      id: newId(this.random, 'user'),
      username: input.username,
      email: input.email,
      is_site_admin: input.isSiteAdmin ? 1 : 0,
      created_at: input.nowMs,
    };
    this.#insert.run(row);
    return row;
  }

  get(id: string): UserRow | undefined {
    return this.#byId.get(id);
  }

  /** Case-insensitive, like the unique index. */
  byUsername(username: string): UserRow | undefined {
    return this.#byUsername.get(username);
  }

  /** The first user registered with `email`, case-insensitively. */
  byEmail(email: string): UserRow | undefined {
    return this.#byEmail.get(email);
  }
}
