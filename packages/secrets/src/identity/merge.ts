import type { AliasRecord, EntityRecord, IdentityStore } from '../core/identity/index.js';
import { InvalidRequestError, multiError } from '../logical/errors.js';

/** A merge refused for several reasons at once: every one is an item of `errors`. */
export class MergeConflictError extends InvalidRequestError {
  constructor(readonly conflicts: string[]) {
    super(multiError(conflicts));
  }
  override get errors(): string[] {
    return this.conflicts;
  }
}

export interface MergeInput {
  fromIds: string[];
  toId: string;
  force: boolean;
  keepAliasIds: string[];
}

const fail = (message: string) => new InvalidRequestError(message);

/** The checks of the established merge, in its order; returns the source entities. */
function sourcesOf(store: IdentityStore, input: MergeInput): { target: EntityRecord; sources: EntityRecord[] } {
  if (!input.toId) throw fail('missing entity id to merge to');
  if (input.fromIds.length === 0) throw fail('missing entity ids to merge from');
  const target = store.entity(input.toId);
  if (!target) throw fail('entity id to merge to is invalid');
  if (input.fromIds.length > 1 && input.keepAliasIds.length > 1) {
    throw fail('aliases conflicts cannot be resolved with multiple from entity ids - merge one entity at a time');
  }
  if (input.fromIds.includes(input.toId)) throw fail('to_entity_id should not be present in from_entity_ids');
  const sources = [...new Set(input.fromIds)].map((id) => {
    const entity = store.entity(id);
    if (!entity) throw fail('entity id to merge from is invalid');
    return entity;
  });
  if (input.keepAliasIds.length === 0) {
    const seen = new Set<string>();
    for (const accessor of sources.flatMap((s) => s.aliases.map((a) => a.mount_accessor))) {
      if (seen.has(accessor)) {
        throw fail(
          `mount accessor ${accessor} found in multiple fromEntities, merge should be done with one fromEntity at a time`,
        );
      }
      seen.add(accessor);
    }
  }
  return { target, sources };
}

/**
 * Every conflict of the merge: MFA secrets of the same method on both sides (unless
 * `force`: then the destination's secret is kept, as the spec says) and aliases of the same
 * mount on both sides that `conflicting_alias_ids_to_keep` does not settle. All are listed.
 */
function conflictsOf(target: EntityRecord, sources: EntityRecord[], input: MergeInput): string[] {
  const conflicts: string[] = [];
  for (const source of sources) {
    if (!input.force) {
      for (const methodId of Object.keys(source.mfa_secrets)) {
        if (target.mfa_secrets[methodId]) {
          conflicts.push(`conflicting MFA config ID "${methodId}" in entity ID "${source.id}"`);
        }
      }
    }
    for (const alias of source.aliases) {
      const clash = target.aliases.find((a) => a.mount_accessor === alias.mount_accessor);
      if (!clash) continue;
      if (input.keepAliasIds.length === 0) {
        conflicts.push(
          `toEntity and at least one fromEntity have aliases with the same mount accessor, repeat the merge request specifying exactly one fromEntity, clashes: mountAccessor: ${alias.mount_accessor}, toEntity ID: ${target.id}, fromEntity ID: ${source.id}, conflicting toEntity alias ID: ${clash.id}, conflicting fromEntity alias ID: ${alias.id}`,
        );
      } else if (!input.keepAliasIds.includes(alias.id) && !input.keepAliasIds.includes(clash.id)) {
        conflicts.push(
          `conflicting mount accessors in following alias IDs and neither were present in conflicting_alias_ids_to_keep: ${alias.id}, ${clash.id}`,
        );
      }
    }
  }
  return conflicts;
}

/**
 * Merges `fromIds` into `toId`: aliases move (a clash settled by the keep-list), merged ids
 * are kept so old tokens resolve to the destination, MFA secrets are copied where the
 * destination has none for that method, group memberships move, and the sources are
 * deleted. Policies, metadata and `disabled` of the destination are unchanged.
 */
export function mergeEntities(store: IdentityStore, input: MergeInput): Promise<void> {
  return store.write(async () => {
    const { target, sources } = sourcesOf(store, input);
    const conflicts = conflictsOf(target, sources, input);
    if (conflicts.length > 0) throw new MergeConflictError(conflicts);
    const now = store.now();
    let merged: EntityRecord = { ...target, aliases: [...target.aliases], mfa_secrets: { ...target.mfa_secrets } };
    for (const source of sources) {
      merged = absorb(merged, source, input.keepAliasIds, now);
      await moveGroups(store, source.id, target.id);
      await store.deleteEntity(source.id);
    }
    await store.saveEntity({ ...merged, last_update_time_ms: now });
  });
}

function absorb(target: EntityRecord, source: EntityRecord, keep: string[], now: number): EntityRecord {
  let aliases = target.aliases;
  for (const alias of source.aliases) {
    const clash = aliases.find((a) => a.mount_accessor === alias.mount_accessor);
    if (clash && keep.includes(clash.id)) continue; // the destination's alias stays; this one goes
    if (clash) aliases = aliases.filter((a) => a.id !== clash.id);
    const moved: AliasRecord = {
      ...alias,
      canonical_id: target.id,
      merged_from_canonical_ids: [...(alias.merged_from_canonical_ids ?? []), source.id],
      last_update_time_ms: now,
    };
    aliases = [...aliases, moved];
  }
  // The destination's secret wins where both have one (spec: with `force`, keep the destination's).
  const mfa_secrets = { ...source.mfa_secrets, ...target.mfa_secrets };
  const merged_entity_ids = [
    ...new Set([...(target.merged_entity_ids ?? []), ...(source.merged_entity_ids ?? []), source.id]),
  ];
  return { ...target, aliases, mfa_secrets, merged_entity_ids };
}

async function moveGroups(store: IdentityStore, fromId: string, toId: string): Promise<void> {
  for (const group of store.groups()) {
    if (!group.member_entity_ids.includes(fromId)) continue;
    const members = [...new Set(group.member_entity_ids.map((m) => (m === fromId ? toId : m)))];
    await store.saveGroup({ ...group, member_entity_ids: members });
  }
}
