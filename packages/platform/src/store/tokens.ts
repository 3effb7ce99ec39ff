import { createHash } from 'node:crypto';
import { type Random, randomBase62 } from '@ward/base';
import { newId } from './ids.js';
import type { TokenRow } from './records.js';
import { insertStatement, type Sql } from './sql.js';

/** Only this hash is stored: a leaked database must not hand out working tokens. */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const COLUMNS = 'id, kind, user_id, organization_id, description, created_at, last_used_at, expired_at';

export class TokenStore {
  constructor(
    private readonly sql: Sql,
    private readonly random: Random,
  ) {}

  /** A new token; the secret is returned here once and never again. */
  createUserToken(input: {
    userId: string;
    description: string | null;
    expiredAtMs: number | null;
    nowMs: number;
    secret?: string;
  }): Promise<{ row: TokenRow; secret: string }> {
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

  /**
   * Replaces the organization's token (there is at most one). Call inside a transaction, so the
   * old token is never gone without the new one.
   */
  async replaceOrganizationToken(input: { organizationId: string; expiredAtMs: number | null; nowMs: number }) {
    await this.deleteOrganizationToken(input.organizationId);
    return this.#create({
      kind: 'organization',
      user_id: null,
      organization_id: input.organizationId,
      description: null,
      expired_at: input.expiredAtMs,
      nowMs: input.nowMs,
      secret: undefined,
    });
  }

  /** Returns whether there was a token to delete. */
  async deleteOrganizationToken(organizationId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM authentication_tokens WHERE organization_id = ?', [organizationId])) > 0;
  }

  bySecret(secret: string): Promise<TokenRow | undefined> {
    return this.sql.get<TokenRow>(`SELECT ${COLUMNS} FROM authentication_tokens WHERE token_sha256 = ?`, [
      sha256(secret),
    ]);
  }

  get(id: string): Promise<TokenRow | undefined> {
    return this.sql.get<TokenRow>(`SELECT ${COLUMNS} FROM authentication_tokens WHERE id = ?`, [id]);
  }

  forUser(userId: string): Promise<TokenRow[]> {
    return this.sql.all<TokenRow>(
      `SELECT ${COLUMNS} FROM authentication_tokens WHERE user_id = ? ORDER BY created_at, id`,
      [userId],
    );
  }

  async touch(id: string, nowMs: number): Promise<void> {
    await this.sql.run('UPDATE authentication_tokens SET last_used_at = ? WHERE id = ?', [nowMs, id]);
  }

  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM authentication_tokens WHERE id = ?', [id]);
  }

  async #create(
    input: Omit<TokenRow, 'id' | 'created_at' | 'last_used_at'> & { nowMs: number; secret: string | undefined },
  ) {
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
    await this.sql.run(...insertStatement('authentication_tokens', { ...row, token_sha256: sha256(secret) }));
    return { row, secret };
  }
}
