import type { AliasRecord, EntityRecord, GroupAliasRecord, GroupRecord } from '../core/identity/index.js';
import { rfc3339Precise } from '../logical/time.js';
import type { IdentityDeps } from './deps.js';

/** What entity and group aliases show alike; `mount_type`/`mount_path` only while the mount exists. */
function aliasHead(d: IdentityDeps, alias: AliasRecord | GroupAliasRecord): Record<string, unknown> {
  const mount = d.authMount(alias.mount_accessor);
  return {
    id: alias.id,
    canonical_id: alias.canonical_id,
    name: alias.name,
    mount_accessor: alias.mount_accessor,
    ...(mount ? { mount_type: mount.type, mount_path: mount.path } : {}),
  };
}

/** An entity alias as reads show it. */
export function aliasData(d: IdentityDeps, alias: AliasRecord): Record<string, unknown> {
  return {
    ...aliasHead(d, alias),
    metadata: alias.metadata,
    custom_metadata: alias.custom_metadata,
    local: alias.local,
    merged_from_canonical_ids: alias.merged_from_canonical_ids,
    namespace_id: alias.namespace_id,
    creation_time: rfc3339Precise(alias.creation_time_ms),
    last_update_time: rfc3339Precise(alias.last_update_time_ms),
  };
}

/** An entity as reads by id and by name show it: the union of the spec's fields. */
export function entityData(d: IdentityDeps, entity: EntityRecord): Record<string, unknown> {
  const { direct, inherited } = d.store.groupsOf(entity.id);
  return {
    id: entity.id,
    name: entity.name,
    namespace_id: entity.namespace_id,
    disabled: entity.disabled,
    // Spec 000's entity table: metadata defaults to {} (established servers print null).
    metadata: entity.metadata ?? {},
    policies: entity.policies,
    merged_entity_ids: entity.merged_entity_ids,
    bucket_key_hash: entity.bucket_key_hash,
    creation_time: rfc3339Precise(entity.creation_time_ms),
    last_update_time: rfc3339Precise(entity.last_update_time_ms),
    aliases: entity.aliases.map((a) => aliasData(d, a)),
    direct_group_ids: direct,
    inherited_group_ids: inherited,
    group_ids: [...direct, ...inherited],
    mfa_secrets: Object.fromEntries(Object.keys(entity.mfa_secrets).map((id) => [id, { method_id: id }])),
  };
}

/** A group alias as reads show it. */
export function groupAliasData(d: IdentityDeps, alias: GroupAliasRecord): Record<string, unknown> {
  return {
    ...aliasHead(d, alias),
    metadata: null,
    merged_from_canonical_ids: null,
    namespace_id: alias.namespace_id,
    creation_time: rfc3339Precise(alias.creation_time_ms),
    last_update_time: rfc3339Precise(alias.last_update_time_ms),
  };
}

/** An empty member list reads as null, as the established server encodes a list never set. */
const members = (ids: string[]) => (ids.length > 0 ? ids : null);

/** A group as reads show it, with its parents and its alias (`{}` when it has none). */
export function groupData(d: IdentityDeps, group: GroupRecord): Record<string, unknown> {
  const alias = d.store.groupAliasOf(group.id);
  return {
    id: group.id,
    name: group.name,
    type: group.type,
    namespace_id: group.namespace_id,
    metadata: group.metadata,
    policies: group.policies,
    member_entity_ids: members(group.member_entity_ids),
    member_group_ids: members(group.member_group_ids),
    parent_group_ids: d.store.parentsOf(group.id).map((g) => g.id),
    alias: alias ? groupAliasData(d, alias) : {},
    creation_time: rfc3339Precise(group.creation_time_ms),
    last_update_time: rfc3339Precise(group.last_update_time_ms),
  };
}
