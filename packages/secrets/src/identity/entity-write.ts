import type { EntityRecord, IdentityStore } from '../core/identity/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';

/** The writable fields of an entity, as parsed; `undefined` = not sent. */
export interface EntityInput {
  id?: string;
  name?: string;
  metadata?: Record<string, string>;
  policies?: string[];
  disabled?: boolean;
}

const METADATA_KEY = /^[a-zA-Z0-9=/+_-]+$/;

/** Trimmed, deduplicated, sorted; `root` refused (identity must never grant it). */
export function entityPolicies(policies: readonly string[]): string[] {
  const names = [...new Set(policies.map((p) => p.trim()).filter((p) => p !== ''))].sort();
  if (names.some((p) => p.toLowerCase() === 'root')) throw new InvalidRequestError('policies cannot contain root');
  return names;
}

/** The established metadata limits: ≤64 pairs, keys ≤128 safe characters not starting `vault-`, values ≤512. */
export function checkMetadata(metadata: Record<string, string>, what = 'entity'): void {
  const fail = (detail: string) => new InvalidRequestError(`invalid ${what} metadata: ${detail}`);
  const entries = Object.entries(metadata);
  if (entries.length > 64) throw fail('metadata cannot contain more than 64 key/value pairs');
  for (const [key, value] of entries) {
    if (key.length > 128) throw fail(`key ${JSON.stringify(key)} is longer than 128 characters`);
    if (!METADATA_KEY.test(key)) throw fail(`key ${JSON.stringify(key)} contains unsupported characters`);
    if (key.startsWith('vault-')) throw fail(`key ${JSON.stringify(key)} cannot start with "vault-"`);
    if (value.length > 512) throw fail(`value for key ${JSON.stringify(key)} is longer than 512 characters`);
  }
}

/**
 * Creates or updates an entity under the established decision table: an `id` must exist;
 * without one, a matching name (case-insensitive) updates that entity; else a new entity.
 * Only supplied fields change. Answers `{id, name, aliases: null}` (spec: every write).
 */
export async function upsertEntity(store: IdentityStore, input: EntityInput): Promise<LogicalResponse> {
  return store.write(async () => {
    let entity: EntityRecord | undefined;
    if (input.id) {
      entity = store.entity(input.id);
      if (!entity) throw new InvalidRequestError('entity not found from id');
    } else if (input.name) {
      entity = store.entityByName(input.name);
    }
    if (input.name && entity) {
      const holder = store.entityByName(input.name);
      if (holder && holder.id !== entity.id) throw new InvalidRequestError('entity name is already in use');
    }
    const policies = input.policies === undefined ? undefined : entityPolicies(input.policies);
    if (input.metadata) checkMetadata(input.metadata);
    const base = entity ?? store.newEntity();
    const next: EntityRecord = {
      ...base,
      ...(input.name ? { name: input.name } : {}),
      ...(input.metadata ? { metadata: Object.keys(input.metadata).length > 0 ? input.metadata : null } : {}),
      ...(policies ? { policies } : {}),
      ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
      last_update_time_ms: store.now(),
    };
    await store.saveEntity(next);
    return { data: { id: next.id, name: next.name, aliases: null } };
  });
}
