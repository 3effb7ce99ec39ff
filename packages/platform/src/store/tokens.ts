import { createHash } from 'node:crypto';
import { type Random, randomBase62 } from '@ward/base';
import type { Db } from './database.js';
import { newId } from './ids.js';
import type { TokenRow } from './records.js';

/** Only this hash is stored: a leaked database must not hand out working tokens. */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const COLUMNS = 'id, kind, user_id, organization_id, description, created_at, last_used_at, expired_at';

export class TokenStore {
  readonly #insert;
  readonly #bySecret;
  readonly #byId;
  readonly #forUser;
  readonly #touch;
  readonly #delete;
  readonly #deleteOrganizationToken;

  constructor(
    private readonly db: Db,
    private readonly random: Random,
  ) {
    this.#insert = db.prepare(
      `INSERT INTO authentication_tokens (${COLUMNS}, token_sha256)
       VALUES (@id, @kind, @user_id, @organization_id, @description, @created_at, @last_used_at, @expired_at, @token_sha256)`,
    );
    this.#bySecret = db.prepare<[string], TokenRow>(
      `SELECT ${COLUMNS} FROM authentication_tokens WHERE token_sha256 = ?`,
    );
    this.#byId = db.prepare<[string], TokenRow>(`SELECT ${COLUMNS} FROM authentication_tokens WHERE id = ?`);
    this.#forUser = db.prepare<[string], TokenRow>(
      `SELECT ${COLUMNS} FROM authentication_tokens WHERE user_id = ? ORDER BY created_at, id`,
    );
    this.#touch = db.prepare('UPDATE authentication_tokens SET last_used_at = ? WHERE id = ?');
    this.#delete = db.prepare('DELETE FROM authentication_tokens WHERE id = ?');
    this.#deleteOrganizationToken = db.prepare('DELETE FROM authentication_tokens WHERE organization_id = ?');
  }

  /** A new token; the secret is returned here once and never again. */
  createUserToken(input: {
    userId: string;
    description: string | null;
    expiredAtMs: number | null;
    nowMs: number;
    secret?: string;
  }): { row: TokenRow; secret: string } {
    return this.#create({
      kind: 'user',
      user_id: input.userId,
      organization_id: null,
      description: input.description,
      expired_at: input.expiredAtMs,
      nowMs: input.nowMs,
      secret: input.secret,
    });
  }

  /** Replaces the organization's token (there is at most one) in one transaction. */
  replaceOrganizationToken(input: { organizationId: string; expiredAtMs: number | null; nowMs: number }): {
    row: TokenRow;
    secret: string;
  } {
    return this.db.transaction(() => {
      this.#deleteOrganizationToken.run(input.organizationId);
      return this.#create({
        kind: 'organization',
        user_id: null,
        organization_id: input.organizationId,
        description: null,
        expired_at: input.expiredAtMs,
        nowMs: input.nowMs,
        secret: undefined,
      });
    })();
  }

  /** Returns whether there was a token to delete. */
  deleteOrganizationToken(organizationId: string): boolean {
    return this.#deleteOrganizationToken.run(organizationId).changes > 0;
  }

  bySecret(secret: string): TokenRow | undefined {
    return this.#bySecret.get(sha256(secret));
  }

  get(id: string): TokenRow | undefined {
    return this.#byId.get(id);
  }

  forUser(userId: string): TokenRow[] {
    return this.#forUser.all(userId);
  }

  touch(id: string, nowMs: number): void {
    this.#touch.run(nowMs, id);
  }

  delete(id: string): void {
    this.#delete.run(id);
  }

  #create(input: Omit<TokenRow, 'id' | 'created_at' | 'last_used_at'> & { nowMs: number; secret: string | undefined }) {
    // The recognisable middle part lets secret scanners find leaked tokens.
    const secret = input.secret ?? `${randomBase62(this.random, 14)}.wardv1.${randomBase62(this.random, 64)}`;
    const row: TokenRow = {
      id: newId(this.random, 'at'),
      kind: input.kind,
      user_id: input.user_id,
      organization_id: input.organization_id,
      description: input.description,
      created_at: input.nowMs,
      last_used_at: null,
      expired_at: input.expired_at,
    };
    this.#insert.run({ ...row, token_sha256: sha256(secret) });
    return { row, secret };
  }
}
