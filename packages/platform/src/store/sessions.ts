import type { Db } from './database.js';
import { sha256 } from './tokens.js';

export interface SessionRow {
  user_id: string;
  csrf_token: string;
  expires_at: number;
}

/** Web sessions of the billing page, keyed by the hash of the cookie value. */
export class SessionStore {
  readonly #insert;
  readonly #get;
  readonly #delete;
  readonly #deleteExpired;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO web_sessions (id_sha256, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#get = db.prepare<[string, number], SessionRow>(
      'SELECT user_id, csrf_token, expires_at FROM web_sessions WHERE id_sha256 = ? AND expires_at > ?',
    );
    this.#delete = db.prepare('DELETE FROM web_sessions WHERE id_sha256 = ?');
    this.#deleteExpired = db.prepare('DELETE FROM web_sessions WHERE expires_at <= ?');
  }

  create(input: { sessionId: string; userId: string; csrfToken: string; nowMs: number; expiresAtMs: number }): void {
    // Sweeping here keeps the table small without a timer.
    this.#deleteExpired.run(input.nowMs);
    this.#insert.run(sha256(input.sessionId), input.userId, input.csrfToken, input.nowMs, input.expiresAtMs);
  }

  /** The live session for a cookie value, or undefined when unknown or expired. */
  get(sessionId: string, nowMs: number): SessionRow | undefined {
    return this.#get.get(sha256(sessionId), nowMs);
  }

  delete(sessionId: string): void {
    this.#delete.run(sha256(sessionId));
  }
}
