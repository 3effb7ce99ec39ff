import { UnsupportedPathError } from '../../logical/errors.js';
import { encodeJson, getJson, type Storage, type StorageOperation } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';
import type { SaltedDigest } from './salted-digest.js';

/** A stored role. Durations in seconds; 0 = unlimited. */
export interface RoleRecord {
  role_id: string;
  bind_secret_id: boolean;
  /** Normalised CIDR blocks a secret id may be used from. */
  secret_id_bound_cidrs: string[];
  secret_id_num_uses: number;
  secret_id_ttl: number;
  /** Fixed at creation, as established (it decides replication, which Ward does not do). */
  local_secret_ids: boolean;
  token: TokenParams;
}

/**
 * The established role-name characters (`\w(([\w-.]+)?\w)?`). Names are case-insensitive
 * and stored lower-cased; a bad name matches no path (404).
 */
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

export function normalizeRoleName(name: string): string {
  if (!ROLE_NAME.test(name)) throw new UnsupportedPathError();
  return name.toLowerCase();
}

/**
 * Roles under `role/<name>`, and the role-id index `role_id/<digest of role id>` → name,
 * so a login finds its role without the role id being stored in the clear as a key.
 */
export class RoleStore {
  constructor(private readonly digest: SaltedDigest) {}

  get(storage: Storage, name: string): Promise<RoleRecord | undefined> {
    return getJson<RoleRecord>(storage, `role/${name}`);
  }

  list(storage: Storage): Promise<string[]> {
    return storage.list('role/');
  }

  /** The name of the role whose role id is `roleId`, if any. */
  async nameByRoleId(storage: Storage, roleId: string): Promise<string | undefined> {
    const entry = await getJson<{ name: string }>(storage, `role_id/${await this.digest.of(roleId)}`);
    return entry?.name;
  }

  /** Writes the role and, when its role id changed, moves the index entry in the same transaction. */
  async put(storage: Storage, name: string, role: RoleRecord, previousRoleId?: string): Promise<void> {
    const newKey = `role_id/${await this.digest.of(role.role_id)}`;
    const ops: StorageOperation[] = [];
    if (previousRoleId !== undefined && previousRoleId !== role.role_id) {
      ops.push({ op: 'delete', key: `role_id/${await this.digest.of(previousRoleId)}` });
    }
    ops.push({ op: 'put', key: newKey, value: encodeJson({ name }) });
    ops.push({ op: 'put', key: `role/${name}`, value: encodeJson(role) });
    await storage.transaction(ops);
  }

  async delete(storage: Storage, name: string, role: RoleRecord): Promise<void> {
    await storage.transaction([
      { op: 'delete', key: `role_id/${await this.digest.of(role.role_id)}` },
      { op: 'delete', key: `role/${name}` },
    ]);
  }
}
