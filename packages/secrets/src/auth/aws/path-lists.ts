import type { Clock } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { rfc3339 } from '../../framework/template/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { awsAuthStore, DEFAULT_TIDY, type TidyKind } from './aws-auth-store.js';
import { tagKey } from './ec2-login.js';
import { verifyRoleTag } from './role-tag.js';
import { tidy } from './tidy.js';

const time = (ms: number) => rfc3339(new Date(ms));

/** The established names of each list and their older ones (`whitelist`, `blacklist`). */
const NAMES: [TidyKind, string][] = [
  ['identity-accesslist', 'identity-accesslist'],
  ['identity-accesslist', 'identity-whitelist'],
  ['roletag-denylist', 'roletag-denylist'],
  ['roletag-denylist', 'roletag-blacklist'],
];

function accessList(name: string): PathDefinition[] {
  return [
    definePath({
      pattern: `${name}/`,
      fields: {},
      operations: {
        list: {
          summary: 'List the instances that logged in.',
          handler: async ({ storage }) => ({ data: { keys: await awsAuthStore.accessList(storage) } }),
        },
      },
      help: { synopsis: 'List the access list.', description: 'Instance ids of ec2 logins whose nonce is kept.' },
    }),
    definePath({
      pattern: `${name}/:instance_id`,
      fields: { instance_id: field.path({ description: 'EC2 instance id.' }) },
      operations: {
        read: {
          summary: 'Read an instance’s entry (without its nonce).',
          handler: async ({ storage, data }) => {
            const e = await awsAuthStore.accessListEntry(storage, data.instance_id);
            if (!e) throw new NotFoundError('');
            return {
              data: {
                role: e.role,
                creation_time: time(e.creation_time_ms),
                expiration_time: time(e.expiration_time_ms),
                pending_time: e.pending_time,
                disallow_reauthentication: e.disallow_reauthentication,
              },
            };
          },
        },
        delete: {
          summary: 'Forget an instance: its next login starts afresh.',
          handler: async ({ storage, data }) => {
            await awsAuthStore.deleteAccessListEntry(storage, data.instance_id);
            return undefined;
          },
        },
      },
      help: { synopsis: 'An instance of the access list.', description: 'Deleting it allows a new first login.' },
    }),
  ];
}

function denyList(name: string, clock: Clock, maxTtlSeconds: () => number): PathDefinition[] {
  return [
    definePath({
      pattern: `${name}/`,
      fields: {},
      operations: {
        list: {
          summary: 'List the deny-listed role tags.',
          handler: async ({ storage }) => {
            const tags: string[] = [];
            for (const key of await awsAuthStore.denyList(storage)) {
              const e = await awsAuthStore.denyListed(storage, key);
              if (e) tags.push(e.tag);
            }
            if (tags.length === 0) throw new NotFoundError('');
            return { data: { keys: tags.sort() } };
          },
        },
      },
      help: { synopsis: 'List the deny list.', description: 'Role tags refused at login.' },
    }),
    definePath({
      pattern: `${name}/*role_tag`,
      fields: { role_tag: field.path({ description: 'The role tag value.' }) },
      operations: {
        update: {
          summary: 'Deny-list a role tag.',
          handler: async ({ storage, data }) => {
            const roleName = /:r=([^:]*):/.exec(data.role_tag)?.[1] ?? '';
            const role = roleName ? await awsAuthStore.role(storage, roleName) : undefined;
            if (!role) throw new InvalidRequestError('the role of the tag does not exist');
            const tag = verifyRoleTag(role, roleName, data.role_tag);
            const now = clock.now();
            const ttl = tag.maxTtl || role.token.token_max_ttl || maxTtlSeconds();
            await awsAuthStore.putDenyListed(storage, tagKey(data.role_tag), {
              tag: data.role_tag,
              creation_time_ms: now,
              expiration_time_ms: now + ttl * 1000,
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read a deny-listed tag.',
          handler: async ({ storage, data }) => {
            const e = await awsAuthStore.denyListed(storage, tagKey(data.role_tag));
            if (!e) throw new NotFoundError('');
            return { data: { creation_time: time(e.creation_time_ms), expiration_time: time(e.expiration_time_ms) } };
          },
        },
        delete: {
          summary: 'Honour a tag again.',
          handler: async ({ storage, data }) => {
            await awsAuthStore.deleteDenyListed(storage, tagKey(data.role_tag));
            return undefined;
          },
        },
      },
      help: { synopsis: 'A deny-listed role tag.', description: 'The tag must be authentic for its role.' },
    }),
  ];
}

function tidyPaths(kind: TidyKind, name: string, clock: Clock): PathDefinition[] {
  const bufferField = field.durationSeconds({ description: 'Time past expiry before an entry goes (default 72h).' });
  return [
    definePath({
      pattern: `tidy/${name}`,
      fields: { safety_buffer: bufferField },
      operations: {
        update: {
          summary: 'Delete expired entries now.',
          handler: async ({ storage, data }) => {
            const buffer = data.safety_buffer ?? (await awsAuthStore.tidyConfig(storage, kind)).safety_buffer;
            await tidy(storage, kind, buffer, clock.now());
            return undefined;
          },
        },
      },
      help: { synopsis: `Tidy the ${kind}.`, description: 'Entries expired longer than the buffer are deleted.' },
    }),
    definePath({
      pattern: `config/tidy/${name}`,
      fields: {
        safety_buffer: bufferField,
        disable_periodic_tidy: field.bool({ description: 'Do not tidy hourly.' }),
      },
      operations: {
        update: {
          summary: 'Configure the tidy.',
          handler: async ({ storage, data, supplied }) => {
            const current = await awsAuthStore.tidyConfig(storage, kind);
            await awsAuthStore.putTidyConfig(storage, kind, {
              safety_buffer: supplied.has('safety_buffer') ? (data.safety_buffer ?? 0) : current.safety_buffer,
              disable_periodic_tidy: supplied.has('disable_periodic_tidy')
                ? (data.disable_periodic_tidy ?? false)
                : current.disable_periodic_tidy,
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read the tidy configuration.',
          handler: async ({ storage }) => ({ data: { ...(await awsAuthStore.tidyConfig(storage, kind)) } }),
        },
        delete: {
          summary: 'Back to the defaults.',
          handler: async ({ storage }) => {
            await awsAuthStore.deleteTidyConfig(storage, kind);
            return undefined;
          },
        },
      },
      help: {
        synopsis: `Configure the tidy of the ${kind}.`,
        description: `Defaults: safety_buffer ${DEFAULT_TIDY.safety_buffer}s, hourly.`,
      },
    }),
  ];
}

/** The access list, the deny list and their tidies, under the current and the older names. */
export function pathLists(clock: Clock, maxTtlSeconds: () => number): PathDefinition[] {
  return NAMES.flatMap(([kind, name]) => [
    ...(kind === 'identity-accesslist' ? accessList(name) : denyList(name, clock, maxTtlSeconds)),
    ...tidyPaths(kind, name, clock),
  ]);
}
