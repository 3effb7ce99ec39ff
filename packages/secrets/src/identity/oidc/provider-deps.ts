import type { Clock, Logger, Random } from '@ward/base';
import type { EntityRecord, IdentityStore } from '../../core/identity/index.js';
import type { Storage } from '../../logical/storage.js';
import type { TemplateFacts } from './claims-template.js';
import { ALLOW_ALL_ASSIGNMENT, ensureDefaults, type ProviderRecord, providerStore } from './provider-store.js';

/** What the OpenID provider's paths share. */
export interface ProviderDeps {
  clock: Clock;
  random: Random;
  logger: Logger;
  /** The namespace's entities and groups. */
  store: IdentityStore;
  namespace: { id: string; path: string };
  /** `scheme://host:port` of this server (`api_addr`, else its first listener): the default issuer. */
  apiAddr(): string;
  /** Writes the default provider, key and assignment when missing, once per backend. */
  ensureDefaults(storage: Storage): Promise<void>;
}

/** `ensureDefaults` done at most once per backend (the core builds one per unseal). */
export function onceDefaults(): (storage: Storage) => Promise<void> {
  let done: Promise<void> | undefined;
  return (storage) => {
    done ??= ensureDefaults(storage).catch((err) => {
      done = undefined;
      throw err;
    });
    return done;
  };
}

/** `<issuer or api_addr>/v1/<namespace>identity/oidc/provider/<name>`: the `iss` of its tokens. */
export function providerIssuer(d: ProviderDeps, name: string, provider: ProviderRecord): string {
  const base = (provider.issuer || d.apiAddr()).replace(/\/+$/, '');
  return `${base}/v1/${d.namespace.path}identity/oidc/provider/${name}`;
}

export const allowsClient = (allowed: readonly string[], clientId: string) =>
  allowed.includes('*') || allowed.includes(clientId);

/** The entity's groups, direct first, then those it is in through other groups. */
function groupsOf(d: ProviderDeps, entityId: string) {
  const { direct, inherited } = d.store.groupsOf(entityId);
  return [...direct, ...inherited].flatMap((id) => d.store.group(id) ?? []);
}

/** Whether the (enabled) entity is let in by one of the client's assignments. */
export async function isAssigned(
  d: ProviderDeps,
  storage: Storage,
  entity: EntityRecord,
  assignments: readonly string[],
): Promise<boolean> {
  if (entity.disabled) return false;
  if (assignments.includes(ALLOW_ALL_ASSIGNMENT)) return true;
  const groupIds = new Set(groupsOf(d, entity.id).map((g) => g.id));
  for (const name of assignments) {
    const a = await providerStore.assignment(storage, name);
    if (!a) continue;
    if (a.group_ids.some((id) => groupIds.has(id)) || a.entity_ids.includes(entity.id)) return true;
  }
  return false;
}

/** What claims templates see of the entity: itself, its aliases and its groups. */
export function templateFacts(d: ProviderDeps, entity: EntityRecord): TemplateFacts {
  return {
    entity: { id: entity.id, name: entity.name, metadata: entity.metadata, aliases: entity.aliases },
    groups: groupsOf(d, entity.id),
    namespaceId: d.namespace.id,
    nowMs: d.clock.now(),
  };
}
