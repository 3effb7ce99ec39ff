import type { GroupAliasRecord } from '../core/identity/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { newGroup } from './group-write.js';

/** The writable fields of a group alias; `undefined` = not sent. */
export interface GroupAliasInput {
  id?: string;
  name?: string;
  mountAccessor?: string;
  canonicalId?: string;
}

const fail = (message: string) => new InvalidRequestError(message);

/**
 * Creates or updates a group alias: a name at an auth mount, unique per mount, the alias of
 * exactly one external group. A new alias naming no group gets a new external group of its
 * own, as established. Answers `{id, canonical_id}`.
 */
export function upsertGroupAlias(d: IdentityDeps, input: GroupAliasInput): Promise<Record<string, unknown>> {
  const { store } = d;
  return store.write(async () => {
    const existing = input.id ? store.groupAlias(input.id) : undefined;
    if (input.id && !existing) throw fail('invalid group alias ID');
    const name = input.name ?? existing?.name;
    const mountAccessor = input.mountAccessor ?? existing?.mount_accessor;
    if (!name) throw fail('missing alias name');
    if (!mountAccessor) throw fail('missing mount_accessor');
    if (!d.authMount(mountAccessor)) throw fail(`invalid mount accessor ${JSON.stringify(mountAccessor)}`);
    const holder = store.groupAliasByFactors(mountAccessor, name);
    if (holder && holder.id !== existing?.id) throw fail('combination of mount and group alias name is already in use');
    const now = store.now();
    let canonicalId = input.canonicalId ?? existing?.canonical_id;
    if (canonicalId) checkGroup(d, canonicalId, existing?.id);
    else {
      const group = newGroup(store, store.newId(), 'external', now);
      await store.saveGroup(group);
      canonicalId = group.id;
    }
    const alias: GroupAliasRecord = {
      id: existing?.id ?? store.newId(),
      canonical_id: canonicalId,
      name,
      mount_accessor: mountAccessor,
      namespace_id: store.namespaceId,
      creation_time_ms: existing?.creation_time_ms ?? now,
      last_update_time_ms: now,
    };
    await store.saveGroupAlias(alias);
    return { id: alias.id, canonical_id: alias.canonical_id };
  });
}

/** The group an alias is attached to must exist, be external, and have no other alias. */
function checkGroup(d: IdentityDeps, groupId: string, aliasId: string | undefined): void {
  const group = d.store.group(groupId);
  if (!group) throw fail('invalid group ID given in canonical_id');
  if (group.type !== 'external') throw fail("alias can't be set on an internal group");
  const other = d.store.groupAliasOf(groupId);
  if (other && other.id !== aliasId) throw fail('group already has an alias');
}
