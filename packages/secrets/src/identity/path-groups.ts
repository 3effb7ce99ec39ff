import type { GroupRecord } from '../core/identity/index.js';
import { definePath, field } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';
import { type GroupInput, upsertGroup } from './group-write.js';
import { groupAliasData, groupData } from './views.js';

const writable = {
  name: field.string({ description: 'Name; default `group_` + 8 hex characters.' }),
  type: field.string({ description: '`internal` (default) or `external`; fixed at creation.' }),
  metadata: field.stringMap({ description: 'Metadata.' }),
  policies: field.commaStrings({ description: 'Policies every member’s tokens get at request time.' }),
  member_entity_ids: field.commaStrings({ description: 'Entities in the group.' }),
  member_group_ids: field.commaStrings({ description: 'Groups in the group (their members inherit).' }),
};

type Writable = {
  name?: string;
  type?: string;
  metadata?: Record<string, string>;
  policies?: string[];
  member_entity_ids?: string[];
  member_group_ids?: string[];
};

const input = (data: Writable, supplied: ReadonlySet<string>, id?: string): GroupInput => ({
  id,
  name: data.name || undefined,
  type: data.type || undefined,
  metadata: supplied.has('metadata') ? data.metadata : undefined,
  policies: supplied.has('policies') ? data.policies : undefined,
  memberEntityIds: supplied.has('member_entity_ids') ? data.member_entity_ids : undefined,
  memberGroupIds: supplied.has('member_group_ids') ? data.member_group_ids : undefined,
});

const help = (synopsis: string) => ({
  synopsis,
  description:
    'Internal groups list their member entities; external groups get them at login through their alias. Members get the group’s policies.',
});

function byKey(
  d: IdentityDeps,
  find: (key: string) => GroupRecord | undefined,
  write: (key: string) => Partial<GroupInput>,
) {
  return {
    update: {
      summary: 'Create or update a group.',
      handler: async ({ data, supplied }: { data: Writable & { key: string }; supplied: ReadonlySet<string> }) =>
        upsertGroup(d.store, { ...input(data, supplied), ...write(data.key) }),
    },
    read: {
      summary: 'Read a group.',
      handler: async ({ data }: { data: { key: string } }) => {
        const group = find(data.key);
        if (!group) throw new NotFoundError('');
        return { data: groupData(d, group) };
      },
    },
    delete: {
      summary: 'Delete a group.',
      handler: async ({ data }: { data: { key: string } }) => {
        await d.store.write(async () => {
          const group = find(data.key);
          if (group) await d.store.deleteGroup(group.id);
        });
        return undefined;
      },
    },
  };
}

/** `group`, `group/id/:id`, `group/name/:name` and their lists. */
export function pathGroups(d: IdentityDeps) {
  // As established, each key's group is summed up under key_info: its name, member and parent counts,
  // and its alias when it has one.
  const list = (key: (g: GroupRecord) => string) => async () => {
    const groups = d.store.groups();
    const keyInfo: Record<string, unknown> = Object.create(null);
    for (const g of groups) keyInfo[key(g)] = groupSummary(d, g);
    return { data: { keys: groups.map(key), key_info: keyInfo } };
  };
  return [
    definePath({
      pattern: 'group',
      fields: { id: field.string({ description: 'Group to update.' }), ...writable },
      operations: {
        update: {
          summary: 'Create a group, or update the one with this id or name.',
          handler: async ({ data, supplied }) => upsertGroup(d.store, input(data, supplied, data.id || undefined)),
        },
      },
      help: help('Create or update a group.'),
    }),
    definePath({
      pattern: 'group/id/',
      fields: {},
      operations: { list: { summary: 'List group ids.', handler: list((g) => g.id) } },
      help: help('List groups by id.'),
    }),
    definePath({
      pattern: 'group/id/:key',
      fields: { key: field.path({ description: 'Group id.' }), ...writable },
      operations: byKey(
        d,
        (id) => d.store.group(id),
        (id) => ({ id }),
      ),
      help: help('Read, update or delete a group by id.'),
    }),
    definePath({
      pattern: 'group/name/',
      fields: {},
      operations: { list: { summary: 'List group names.', handler: list((g) => g.name) } },
      help: help('List groups by name.'),
    }),
    definePath({
      pattern: 'group/name/*key',
      fields: { key: field.path({ description: 'Group name.', caseInsensitive: true }), ...writable },
      operations: byKey(
        d,
        (name) => d.store.groupByName(name),
        (name) => ({ id: d.store.groupByName(name)?.id, name }),
      ),
      help: help('Read, create, update or delete a group by name.'),
    }),
  ];
}

function groupSummary(d: IdentityDeps, group: GroupRecord): Record<string, unknown> {
  const alias = d.store.groupAliasOf(group.id);
  return {
    name: group.name,
    num_member_entities: group.member_entity_ids.length,
    num_parent_groups: d.store.parentsOf(group.id).length,
    ...(alias ? { alias: groupAliasData(d, alias) } : {}),
  };
}
