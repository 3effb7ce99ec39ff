import type { Random } from '@ward/base';
import { newId } from './ids.js';
import type { UserRow } from './records.js';
import { insertStatement, type Sql } from './sql.js';

export class UserStore {
  readonly #byUsername: string;
  readonly #byEmail: string;

  constructor(
    private readonly sql: Sql,
    private readonly random: Random,
  ) {
    // Case-insensitive lookups that use each dialect's index (NOCASE column, lower() index).
    const ci = (column: string) =>
      sql.dialect === 'sqlite' ? `${column} = ? COLLATE NOCASE` : `lower(${column}) = lower(?)`;
    this.#byUsername = `SELECT * FROM users WHERE ${ci('username')}`;
    this.#byEmail = `SELECT * FROM users WHERE ${ci('email')} ORDER BY created_at, id`;
  }

  async create(input: { username: string; email: string; isSiteAdmin: boolean; nowMs: number }): Promise<UserRow> {
    const row: UserRow = {
      id: newId(this.random, 'user'),
      username: input.username,
      email: input.email,
      is_site_admin: input.isSiteAdmin ? 1 : 0,
      created_at: input.nowMs,
    };
    await this.sql.run(...insertStatement('users', { ...row }));
    return row;
  }

  get(id: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
  }

  /** Case-insensitive, like the unique index. */
  byUsername(username: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(this.#byUsername, [username]);
  }

  /** The first user registered with `email`, case-insensitively. */
  byEmail(email: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(this.#byEmail, [email]);
  }
}
