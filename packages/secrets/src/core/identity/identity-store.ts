import { createHash } from 'node:crypto';
import { type Clock, type Random, randomUuid } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { AliasRecord, EntityRecord, GroupAliasRecord, GroupRecord, TotpMethod } from './records.js';

export interface IdentityStoreDeps {
  /** The namespace's identity storage, behind the barrier. */
  storage: Storage;
  clock: Clock;
  random: Random;
  namespaceId: string;
}

/** Identity policies and group membership of one entity, computed from the groups. */
export interface EntityGroups {
  direct: string[];
  inherited: string[];
}

const KIND = { entity: 'entity/', group: 'group/', groupAlias: 'group-alias/', method: 'mfa-method/' } as const;

/**
 * One namespace's entities, aliases, groups and MFA methods: in memory while unsealed (every
 * authenticated request with an entity looks here), each record persisted under
 * `entity/<id>`, `group/<id>`, `mfa-method/<id>`. Writers go through `write()`, one at a
 * time, so checks such as "one alias per mount per entity" cannot race.
 */
export class IdentityStore {
  readonly #deps: IdentityStoreDeps;
  readonly #entities = new Map<string, EntityRecord>();
  readonly #groups = new Map<string, GroupRecord>();
  readonly #groupAliases = new Map<string, GroupAliasRecord>();
  readonly #methods = new Map<string, TotpMethod>();
  readonly #lock = new KeyedMutex();

  constructor(deps: IdentityStoreDeps) {
    this.#deps = deps;
  }

  get namespaceId(): string {
    return this.#deps.namespaceId;
  }

  /** Loads every record (at unseal, or when the namespace is created). */
  async load(): Promise<void> {
    const { storage } = this.#deps;
    const each = async <T>(prefix: string, into: Map<string, T>) => {
      for (const id of await storage.list(prefix)) {
        const record = await getJson<T>(storage, `${prefix}${id}`);
        if (record) into.set(id, record);
      }
    };
    await each(KIND.entity, this.#entities);
    await each(KIND.group, this.#groups);
    await each(KIND.groupAlias, this.#groupAliases);
    await each(KIND.method, this.#methods);
  }

  /**
   * Reads one record (`key` below this store's storage, e.g. `entity/<id>`) again, because
   * another server changed it: the copy in memory follows what storage holds now.
   */
  async reloadRecord(key: string): Promise<void> {
    const kinds: Array<[string, Map<string, unknown>]> = [
      [KIND.entity, this.#entities],
      [KIND.group, this.#groups],
      [KIND.groupAlias, this.#groupAliases],
      [KIND.method, this.#methods],
    ];
    const found = kinds.find(([prefix]) => key.startsWith(prefix));
    if (!found) return;
    const [prefix, into] = found;
    const id = key.slice(prefix.length);
    const record = await getJson<unknown>(this.#deps.storage, key);
    if (record === undefined) into.delete(id);
    else into.set(id, record);
  }

  /** Runs `fn` after every earlier write settled. */
  write<T>(fn: () => Promise<T>): Promise<T> {
    return this.#lock.run('identity', fn);
  }

  newId(): string {
    return randomUuid(this.#deps.random);
  }

  /** For the records' creation and update times, which clients see to the microsecond. */
  now(): number {
    return this.#deps.clock.nowPrecise();
  }

  // ---- entities ------------------------------------------------------------------------

  entity(id: string): EntityRecord | undefined {
    return this.#entities.get(id);
  }

  /** Names compare case-insensitively. */
  entityByName(name: string): EntityRecord | undefined {
    const lower = name.toLowerCase();
    for (const e of this.#entities.values()) if (e.name.toLowerCase() === lower) return e;
    return undefined;
  }

  /** Ordered by id, as the established store iterates. */
  entities(): EntityRecord[] {
    return [...this.#entities.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The entity a token's `entity_id` means now: itself, or the entity it was merged into. */
  resolveEntity(id: string): EntityRecord | undefined {
    const direct = this.#entities.get(id);
    if (direct) return direct;
    for (const e of this.#entities.values()) if (e.merged_entity_ids?.includes(id)) return e;
    return undefined;
  }

  /** A fresh entity record (not stored): default name `entity-<UUID>` (spec). */
  newEntity(fields: Partial<EntityRecord> = {}): EntityRecord {
    const id = fields.id ?? this.newId();
    const now = this.now();
    return {
      id,
      name: `entity-${randomUuid(this.#deps.random)}`,
      namespace_id: this.#deps.namespaceId,
      metadata: null,
      policies: [],
      disabled: false,
      merged_entity_ids: null,
      aliases: [],
      mfa_secrets: {},
      bucket_key_hash: createHash('md5').update(id).digest('hex'),
      creation_time_ms: now,
      last_update_time_ms: now,
      ...fields,
    };
  }

  async saveEntity(entity: EntityRecord): Promise<void> {
    await putJson(this.#deps.storage, `${KIND.entity}${entity.id}`, entity);
    this.#entities.set(entity.id, entity);
  }

  /** Removes the entity and its aliases, and takes it out of every group. */
  async deleteEntity(id: string): Promise<void> {
    if (!this.#entities.has(id)) return;
    for (const group of this.#groups.values()) {
      if (!group.member_entity_ids.includes(id)) continue;
      await this.saveGroup({ ...group, member_entity_ids: group.member_entity_ids.filter((m) => m !== id) });
    }
    await this.#deps.storage.delete(`${KIND.entity}${id}`);
    this.#entities.delete(id);
  }

  // ---- aliases -------------------------------------------------------------------------

  /** The alias with `(mountAccessor, name)`, names compared case-insensitively. */
  aliasByFactors(mountAccessor: string, name: string): { entity: EntityRecord; alias: AliasRecord } | undefined {
    const lower = name.toLowerCase();
    for (const entity of this.#entities.values()) {
      const alias = entity.aliases.find((a) => a.mount_accessor === mountAccessor && a.name.toLowerCase() === lower);
      if (alias) return { entity, alias };
    }
    return undefined;
  }

  aliasById(id: string): { entity: EntityRecord; alias: AliasRecord } | undefined {
    for (const entity of this.#entities.values()) {
      const alias = entity.aliases.find((a) => a.id === id);
      if (alias) return { entity, alias };
    }
    return undefined;
  }

  newAlias(entityId: string, mountAccessor: string, name: string): AliasRecord {
    const now = this.now();
    return {
      id: this.newId(),
      canonical_id: entityId,
      name,
      mount_accessor: mountAccessor,
      metadata: null,
      custom_metadata: null,
      local: false,
      merged_from_canonical_ids: null,
      namespace_id: this.#deps.namespaceId,
      creation_time_ms: now,
      last_update_time_ms: now,
    };
  }

  /**
   * The entity a login of `name` at `mountAccessor` acts as: the one holding that alias, or
   * a new entity with one new alias (the first login). With `aliasMetadata` (a method's
   * `enable_identity_alias_metadata`), the alias's metadata becomes it, rewritten only when it changed.
   */
  loginEntity(mountAccessor: string, name: string, aliasMetadata?: Record<string, string>): Promise<EntityRecord> {
    return this.write(async () => {
      const found = this.aliasByFactors(mountAccessor, name);
      if (found && (!aliasMetadata || sameMetadata(found.alias.metadata, aliasMetadata))) return found.entity;
      if (found && aliasMetadata) {
        const alias = { ...found.alias, metadata: { ...aliasMetadata }, last_update_time_ms: this.now() };
        const entity = { ...found.entity, aliases: found.entity.aliases.map((a) => (a === found.alias ? alias : a)) };
        await this.saveEntity(entity);
        return entity;
      }
      const entity = this.newEntity();
      const alias = this.newAlias(entity.id, mountAccessor, name);
      if (aliasMetadata) alias.metadata = { ...aliasMetadata };
      entity.aliases = [alias];
      await this.saveEntity(entity);
      return entity;
    });
  }

  /**
   * Makes the entity a member of exactly those external groups whose alias at `mountAccessor`
   * is one of `names` (case-insensitive), and of no other external group of that mount: the
   * groups an auth method reported at this login. Names without a group alias are ignored.
   */
  syncExternalGroups(mountAccessor: string, entityId: string, names: readonly string[]): Promise<void> {
    return this.write(async () => {
      const wanted = new Set(names.map((n) => n.toLowerCase()));
      for (const alias of this.#groupAliases.values()) {
        if (alias.mount_accessor !== mountAccessor) continue;
        const group = this.#groups.get(alias.canonical_id);
        if (!group || group.type !== 'external') continue;
        const isMember = group.member_entity_ids.includes(entityId);
        const shouldBe = wanted.has(alias.name.toLowerCase());
        if (isMember === shouldBe) continue;
        const member_entity_ids = shouldBe
          ? [...group.member_entity_ids, entityId]
          : group.member_entity_ids.filter((m) => m !== entityId);
        await this.saveGroup({ ...group, member_entity_ids, last_update_time_ms: this.now() });
      }
    });
  }

  // ---- groups --------------------------------------------------------------------------

  group(id: string): GroupRecord | undefined {
    return this.#groups.get(id);
  }

  groupByName(name: string): GroupRecord | undefined {
    const lower = name.toLowerCase();
    for (const g of this.#groups.values()) if (g.name.toLowerCase() === lower) return g;
    return undefined;
  }

  groups(): GroupRecord[] {
    return [...this.#groups.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async saveGroup(group: GroupRecord): Promise<void> {
    await putJson(this.#deps.storage, `${KIND.group}${group.id}`, group);
    this.#groups.set(group.id, group);
  }

  /** Removes the group and its alias, and takes it out of every parent group. */
  async deleteGroup(id: string): Promise<void> {
    if (!this.#groups.has(id)) return;
    const alias = this.groupAliasOf(id);
    if (alias) await this.deleteGroupAlias(alias.id);
    for (const parent of this.#groups.values()) {
      if (!parent.member_group_ids.includes(id)) continue;
      await this.saveGroup({ ...parent, member_group_ids: parent.member_group_ids.filter((m) => m !== id) });
    }
    await this.#deps.storage.delete(`${KIND.group}${id}`);
    this.#groups.delete(id);
  }

  /** Groups listing `groupId` as a member group. */
  parentsOf(groupId: string): GroupRecord[] {
    return [...this.#groups.values()].filter((g) => g.member_group_ids.includes(groupId));
  }

  /** Groups listing the entity directly, and every ancestor of those (walking parent groups upward). */
  groupsOf(entityId: string): EntityGroups {
    const direct = this.groups()
      .filter((g) => g.member_entity_ids.includes(entityId))
      .map((g) => g.id);
    const seen = new Set(direct);
    const inherited: string[] = [];
    const queue = [...direct];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (const parent of this.parentsOf(id)) {
        if (seen.has(parent.id)) continue;
        seen.add(parent.id);
        inherited.push(parent.id);
        queue.push(parent.id);
      }
    }
    return { direct, inherited };
  }

  /** The entity's own policies and those of every group it is in, directly or not; sorted. */
  identityPolicies(entity: EntityRecord): string[] {
    const { direct, inherited } = this.groupsOf(entity.id);
    const names = new Set(entity.policies);
    for (const id of [...direct, ...inherited]) for (const p of this.#groups.get(id)?.policies ?? []) names.add(p);
    return [...names].sort();
  }

  // ---- group aliases -------------------------------------------------------------------

  groupAlias(id: string): GroupAliasRecord | undefined {
    return this.#groupAliases.get(id);
  }

  /** The group alias with `(mountAccessor, name)`, names compared case-insensitively. */
  groupAliasByFactors(mountAccessor: string, name: string): GroupAliasRecord | undefined {
    const lower = name.toLowerCase();
    for (const a of this.#groupAliases.values()) {
      if (a.mount_accessor === mountAccessor && a.name.toLowerCase() === lower) return a;
    }
    return undefined;
  }

  /** The alias attached to group `groupId`, if any. */
  groupAliasOf(groupId: string): GroupAliasRecord | undefined {
    for (const a of this.#groupAliases.values()) if (a.canonical_id === groupId) return a;
    return undefined;
  }

  /** Ordered by id. */
  groupAliases(): GroupAliasRecord[] {
    return [...this.#groupAliases.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async saveGroupAlias(alias: GroupAliasRecord): Promise<void> {
    await putJson(this.#deps.storage, `${KIND.groupAlias}${alias.id}`, alias);
    this.#groupAliases.set(alias.id, alias);
  }

  async deleteGroupAlias(id: string): Promise<void> {
    await this.#deps.storage.delete(`${KIND.groupAlias}${id}`);
    this.#groupAliases.delete(id);
  }

  // ---- MFA methods ---------------------------------------------------------------------

  method(id: string): TotpMethod | undefined {
    return this.#methods.get(id);
  }

  methods(): TotpMethod[] {
    return [...this.#methods.values()];
  }

  async saveMethod(method: TotpMethod): Promise<void> {
    await putJson(this.#deps.storage, `${KIND.method}${method.id}`, method);
    this.#methods.set(method.id, method);
  }

  async deleteMethod(id: string): Promise<void> {
    await this.#deps.storage.delete(`${KIND.method}${id}`);
    this.#methods.delete(id);
  }
}

function sameMetadata(a: Record<string, string> | null, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  if (Object.keys(a ?? {}).length !== keys.length) return false;
  return keys.every((k) => a !== null && Object.hasOwn(a, k) && a[k] === b[k]);
}
