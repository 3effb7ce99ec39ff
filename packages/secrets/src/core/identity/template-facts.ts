import type { EntityFacts, GroupFacts } from '../../logical/identity-template.js';
import type { IdentityStore } from './identity-store.js';
import type { EntityRecord } from './records.js';

/**
 * What identity templates may read about `entity` (never its MFA secrets). Its groups, direct
 * and inherited, are looked up only when a template asks for them: most requests fill none.
 */
export function templateFacts(store: IdentityStore, entity: EntityRecord): EntityFacts {
  let groups: GroupFacts[] | undefined;
  return {
    id: entity.id,
    name: entity.name,
    metadata: entity.metadata,
    aliases: entity.aliases,
    get groups() {
      if (groups === undefined) {
        const { direct, inherited } = store.groupsOf(entity.id);
        groups = [...direct, ...inherited].flatMap((id) => {
          const g = store.group(id);
          return g ? [{ id: g.id, name: g.name, metadata: g.metadata }] : [];
        });
      }
      return groups;
    },
  };
}
