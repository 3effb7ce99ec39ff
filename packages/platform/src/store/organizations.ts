import type { Random } from '@ward/base';
import { newId } from './ids.js';
import type { MembershipRole, OrganizationRow } from './records.js';
import { insertStatement, type Sql } from './sql.js';

export interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: string;
  role: MembershipRole;
  created_at: number;
}

export class OrganizationStore {
  readonly #byName: string;
  readonly #forUser: string;

  constructor(
    private readonly sql: Sql,
    private readonly random: Random,
  ) {
    const isSqlite = sql.dialect === 'sqlite';
    this.#byName = isSqlite
      ? 'SELECT * FROM organizations WHERE name = ?'
      : 'SELECT * FROM organizations WHERE lower(name) = lower(?)';
    this.#forUser = `SELECT o.* FROM organizations o JOIN memberships m ON m.organization_id = o.id
       WHERE m.user_id = ? ORDER BY ${isSqlite ? 'o.name COLLATE NOCASE' : 'lower(o.name)'}`;
  }

  async create(input: { name: string; email: string; nowMs: number }): Promise<OrganizationRow> {
    const row: OrganizationRow = {
      id: newId(this.random, 'org'),
      name: input.name,
      email: input.email,
      created_at: input.nowMs,
    };
    await this.sql.run(...insertStatement('organizations', { ...row }));
    return row;
  }

  /** Case-insensitive, like the unique index. */
  byName(name: string): Promise<OrganizationRow | undefined> {
    return this.sql.get<OrganizationRow>(this.#byName, [name]);
  }

  get(id: string): Promise<OrganizationRow | undefined> {
    return this.sql.get<OrganizationRow>('SELECT * FROM organizations WHERE id = ?', [id]);
  }

  /**
   * Inside a transaction: waits until no other transaction holds the organization, and holds it
   * until this one ends (PostgreSQL `FOR UPDATE`; SQLite's BEGIN IMMEDIATE already holds the
   * whole database). Returns false when the organization does not exist.
   */
  async lock(id: string): Promise<boolean> {
    const lockClause = this.sql.dialect === 'postgres' ? ' FOR UPDATE' : '';
    return (await this.sql.get(`SELECT id FROM organizations WHERE id = ?${lockClause}`, [id])) !== undefined;
  }

  /** The organizations the user is a member of, by name. */
  forUser(userId: string): Promise<OrganizationRow[]> {
    return this.sql.all<OrganizationRow>(this.#forUser, [userId]);
  }

  /** Removes the organization with its memberships, subscriptions and organization token. */
  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM organizations WHERE id = ?', [id]);
  }

  membership(organizationId: string, userId: string): Promise<MembershipRow | undefined> {
    return this.sql.get<MembershipRow>('SELECT * FROM memberships WHERE organization_id = ? AND user_id = ?', [
      organizationId,
      userId,
    ]);
  }

  /**
   * Adds the user with `role`, or returns the membership the user already has (also when a
   * concurrent request, from any process, adds it first).
   */
  async addMember(organizationId: string, userId: string, role: MembershipRole, nowMs: number): Promise<MembershipRow> {
    const row: MembershipRow = {
      id: newId(this.random, 'ou'),
      organization_id: organizationId,
      user_id: userId,
      role,
      created_at: nowMs,
    };
    const [insert, params] = insertStatement('memberships', { ...row });
    await this.sql.run(`${insert} ON CONFLICT (organization_id, user_id) DO NOTHING`, params);
    const stored = await this.membership(organizationId, userId);
    if (!stored) throw new Error(`membership of ${userId} in ${organizationId} vanished`);
    return stored;
  }
}
