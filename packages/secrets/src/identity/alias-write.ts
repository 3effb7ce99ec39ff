import type { AliasRecord, EntityRecord } from '../core/identity/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';

/** The writable fields of an alias, as parsed; `undefined` = not sent. */
export interface AliasInput {
  id?: string;
  name?: string;
  mountAccessor?: string;
  canonicalId?: string;
  customMetadata?: Record<string, string>;
}

const fail = (message: string) => new InvalidRequestError(message);

/**
 * Creates an alias or updates one (by `id`, or the alias already holding `(mount accessor,
 * name)`), under the established rules: one alias per (mount accessor, name) and at most
 * one alias per mount per entity. A new alias without `canonical_id` gets a new entity.
 */
export function upsertAlias(d: IdentityDeps, input: AliasInput): Promise<{ id: string; canonical_id: string }> {
  const { store } = d;
  return store.write(async () => {
    let found: { entity: EntityRecord; alias: AliasRecord } | undefined;
    if (input.id) {
      found = store.aliasById(input.id);
      if (!found) throw fail('invalid alias ID provided');
    } else {
      if (!input.mountAccessor || !input.name) throw fail("'id' or 'mount_accessor' and 'name' must be provided");
      found = store.aliasByFactors(input.mountAccessor, input.name);
    }
    const accessor = input.mountAccessor ?? found?.alias.mount_accessor ?? '';
    if (!d.authMount(accessor)) throw fail(`invalid mount accessor ${JSON.stringify(accessor)}`);
    let target: EntityRecord | undefined;
    if (input.canonicalId) {
      target = store.entity(input.canonicalId);
      if (!target) throw fail('invalid canonical ID');
    }
    return found ? updateAlias(d, found, input, accessor, target) : createAlias(d, input, accessor, target);
  });
}

async function createAlias(d: IdentityDeps, input: AliasInput, accessor: string, target: EntityRecord | undefined) {
  const { store } = d;
  if (target?.aliases.some((a) => a.mount_accessor === accessor)) {
    throw fail('Alias already exists for requested entity and mount accessor');
  }
  const entity = target ?? store.newEntity();
  const alias = store.newAlias(entity.id, accessor, input.name ?? '');
  if (input.customMetadata) alias.custom_metadata = input.customMetadata;
  await store.saveEntity({ ...entity, aliases: [...entity.aliases, alias], last_update_time_ms: store.now() });
  return { id: alias.id, canonical_id: entity.id };
}

async function updateAlias(
  d: IdentityDeps,
  found: { entity: EntityRecord; alias: AliasRecord },
  input: AliasInput,
  accessor: string,
  target: EntityRecord | undefined,
) {
  const { store } = d;
  const name = input.name ?? found.alias.name;
  const holder = store.aliasByFactors(accessor, name);
  if (holder && holder.alias.id !== found.alias.id) {
    throw fail('alias with combination of mount accessor and name already exists');
  }
  const destination = target ?? found.entity;
  const moving = destination.id !== found.entity.id;
  if (moving && destination.aliases.some((a) => a.mount_accessor === accessor)) {
    throw fail('Alias cannot be updated as the given entity already has an alias for this mount ');
  }
  const now = store.now();
  const alias: AliasRecord = {
    ...found.alias,
    name,
    mount_accessor: accessor,
    canonical_id: destination.id,
    ...(input.customMetadata ? { custom_metadata: input.customMetadata } : {}),
    last_update_time_ms: now,
  };
  const without = found.entity.aliases.filter((a) => a.id !== alias.id);
  if (moving) {
    await store.saveEntity({ ...found.entity, aliases: without, last_update_time_ms: now });
    const fresh = store.entity(destination.id) ?? destination;
    await store.saveEntity({ ...fresh, aliases: [...fresh.aliases, alias], last_update_time_ms: now });
  } else {
    await store.saveEntity({ ...found.entity, aliases: [...without, alias], last_update_time_ms: now });
  }
  return { id: alias.id, canonical_id: destination.id };
}

/** Removes an alias from its entity; unknown ids are ignored. */
export function deleteAlias(d: IdentityDeps, id: string): Promise<void> {
  return d.store.write(async () => {
    const found = d.store.aliasById(id);
    if (!found) return;
    const aliases = found.entity.aliases.filter((a) => a.id !== id);
    await d.store.saveEntity({ ...found.entity, aliases, last_update_time_ms: d.store.now() });
  });
}
