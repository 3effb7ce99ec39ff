import type { GroupRecord, IdentityStore } from '../core/identity/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import { checkMetadata, entityPolicies } from './entity-write.js';

/** The writable fields of a group, as parsed; `undefined` = not sent. */
export interface GroupInput {
  id?: string;
  name?: string;
  type?: string;
  metadata?: Record<string, string>;
  policies?: string[];
  memberEntityIds?: string[];
  memberGroupIds?: string[];
}

const fail = (message: string) => new InvalidRequestError(message);

/**
 * Creates or updates a group (`internal` unless the create says `external`; the type never
 * changes; an external group's member entities are not written here): an `id` must exist; without one a matching name
 * updates that group. Members must exist and groups may not contain themselves, directly
 * or not. Answers `{id, name}` on create, nothing on update.
 */
export function upsertGroup(store: IdentityStore, input: GroupInput): Promise<LogicalResponse | undefined> {
  return store.write(async () => {
    let group: GroupRecord | undefined;
    if (input.id) {
      group = store.group(input.id);
      if (!group) throw fail('group not found from id');
    } else if (input.name) {
      group = store.groupByName(input.name);
    }
    const type = groupType(input.type, group);
    if (type === 'external' && input.memberEntityIds?.length) {
      // An external group's members come from the auth method at login, through its alias.
      throw fail("member entities can't be set manually for external groups");
    }
    if (input.name) {
      const holder = store.groupByName(input.name);
      if (holder && holder.id !== group?.id) throw fail('group name is already in use');
    }
    if (input.metadata) checkMetadata(input.metadata, 'group');
    const id = group?.id ?? store.newId();
    for (const member of input.memberEntityIds ?? []) {
      if (!store.entity(member)) throw fail(`invalid entity ID ${JSON.stringify(member)}`);
    }
    for (const member of input.memberGroupIds ?? []) {
      if (!store.group(member)) throw fail(`invalid group ID ${JSON.stringify(member)}`);
      if (reaches(store, member, id)) throw fail(`member group ID ${JSON.stringify(member)} would create a cycle`);
    }
    const now = store.now();
    const next: GroupRecord = {
      ...(group ?? newGroup(store, id, type, now)),
      ...(input.name ? { name: input.name } : {}),
      ...(input.metadata ? { metadata: Object.keys(input.metadata).length > 0 ? input.metadata : null } : {}),
      ...(input.policies ? { policies: entityPolicies(input.policies) } : {}),
      ...(input.memberEntityIds ? { member_entity_ids: [...new Set(input.memberEntityIds)] } : {}),
      ...(input.memberGroupIds ? { member_group_ids: [...new Set(input.memberGroupIds)] } : {}),
      last_update_time_ms: now,
    };
    await store.saveGroup(next);
    return group ? undefined : { data: { id: next.id, name: next.name } };
  });
}

/** The type a write leaves the group with: `internal` by default, and never changed once set. */
function groupType(asked: string | undefined, group: GroupRecord | undefined): GroupRecord['type'] {
  if (asked !== undefined && asked !== 'internal' && asked !== 'external') {
    throw fail(`invalid group type ${JSON.stringify(asked)}`);
  }
  if (group && asked !== undefined && asked !== group.type) throw fail('group type cannot be changed');
  return group?.type ?? asked ?? 'internal';
}

/** A fresh group record (not stored): default name `group_` + the first 8 hex digits of its id. */
export function newGroup(store: IdentityStore, id: string, type: GroupRecord['type'], now: number): GroupRecord {
  return {
    id,
    name: `group_${id.replace(/-/g, '').slice(0, 8)}`,
    type,
    namespace_id: store.namespaceId,
    metadata: null,
    policies: [],
    member_entity_ids: [],
    member_group_ids: [],
    creation_time_ms: now,
    last_update_time_ms: now,
  };
}

/** Whether `target` is `from` or one of its member groups, at any depth. */
function reaches(store: IdentityStore, from: string, target: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(store.group(id)?.member_group_ids ?? []));
  }
  return false;
}
