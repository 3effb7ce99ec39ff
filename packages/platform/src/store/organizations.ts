import type { Random } from '@ward/base';
import type { Db } from './database.js';
import { newId } from './ids.js';
import type { MembershipRole, OrganizationRow } from './records.js';

export interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: string;
  role: MembershipRole;
  created_at: number;
}

export class OrganizationStore {
  readonly #insert;
  readonly #byName;
  readonly #byId;
  readonly #forUser;
  readonly #delete;
  readonly #membership;
  readonly #addMember;

  constructor(
    db: Db,
    private readonly random: Random,
  ) {
    this.#insert = db.prepare(
      'INSERT INTO organizations (id, name, email, created_at) VALUES (@id, @name, @email, @created_at)',
    );
    this.#byName = db.prepare<[string], OrganizationRow>('SELECT * FROM organizations WHERE name = ?');
    this.#byId = db.prepare<[string], OrganizationRow>('SELECT * FROM organizations WHERE id = ?');
    this.#forUser = db.prepare<[string], OrganizationRow>(
      `SELECT o.* FROM organizations o JOIN memberships m ON m.organization_id = o.id
       WHERE m.user_id = ? ORDER BY o.name COLLATE NOCASE`,
    );
    this.#delete = db.prepare('DELETE FROM organizations WHERE id = ?');
    this.#membership = db.prepare<[string, string], MembershipRow>(
      'SELECT * FROM memberships WHERE organization_id = ? AND user_id = ?',
    );
    this.#addMember = db.prepare(
      `INSERT INTO memberships (id, organization_id, user_id, role, created_at)
       VALUES (@id, @organization_id, @user_id, @role, @created_at)`,
    );
  }

  create(input: { name: string; email: string; nowMs: number }): OrganizationRow {
    const row: OrganizationRow = {
      id: newId(this.random, 'org'),
      name: input.name,
      email: input.email,
      created_at: input.nowMs,
    };
    this.#insert.run(row);
    return row;
  }

  /** Case-insensitive, like the unique index. */
  byName(name: string): OrganizationRow | undefined {
    return this.#byName.get(name);
  }

  get(id: string): OrganizationRow | undefined {
    return this.#byId.get(id);
  }

  /** The organizations the user is a member of, by name. */
  forUser(userId: string): OrganizationRow[] {
    return this.#forUser.all(userId);
  }

  /** Removes the organization with its memberships, subscriptions and organization token. */
  delete(id: string): void {
    this.#delete.run(id);
  }

  membership(organizationId: string, userId: string): MembershipRow | undefined {
    return this.#membership.get(organizationId, userId);
  }

  /** Adds the user with `role`, or returns the membership the user already has. */
  addMember(organizationId: string, userId: string, role: MembershipRole, nowMs: number): MembershipRow {
    const existing = this.membership(organizationId, userId);
    if (existing) return existing;
    const row: MembershipRow = {
      id: newId(this.random, 'ou'),
      organization_id: organizationId,
      user_id: userId,
      role,
      created_at: nowMs,
    };
    this.#addMember.run(row);
    return row;
  }
}
