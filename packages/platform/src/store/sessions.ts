import type { Sql } from './sql.js';
import { sha256 } from './tokens.js';

export interface SessionRow {
  user_id: string;
  csrf_token: string;
  expires_at: number;
}

/**
 * Web sessions of the billing page, keyed by the hash of the cookie value. They live in the
 * database, so every process on it knows every session.
 */
export class SessionStore {
  constructor(private readonly sql: Sql) {}

  async create(input: {
    sessionId: string;
    userId: string;
    csrfToken: string;
    nowMs: number;
    expiresAtMs: number;
  }): Promise<void> {
    // Sweeping here keeps the table small without a timer.
    await this.sql.run('DELETE FROM web_sessions WHERE expires_at <= ?', [input.nowMs]);
    await this.sql.run(
      'INSERT INTO web_sessions (id_sha256, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      [sha256(input.sessionId), input.userId, input.csrfToken, input.nowMs, input.expiresAtMs],
    );
  }

  /** The live session for a cookie value, or undefined when unknown or expired. */
  get(sessionId: string, nowMs: number): Promise<SessionRow | undefined> {
    return this.sql.get<SessionRow>(
      'SELECT user_id, csrf_token, expires_at FROM web_sessions WHERE id_sha256 = ? AND expires_at > ?',
      [sha256(sessionId), nowMs],
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.sql.run('DELETE FROM web_sessions WHERE id_sha256 = ?', [sha256(sessionId)]);
  }
}
