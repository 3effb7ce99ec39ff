import type { Random } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { checkClaimsTemplate } from './claims-template.js';
import { type OidcRole, oidcStore } from './oidc-store.js';

/** `oidc/role/:name` and LIST `oidc/role`: which key signs a role's tokens, for how long, for which client id. */
export function pathOidcRoles(d: { random: Random }): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/role/',
      fields: {},
      operations: {
        list: {
          summary: 'List the roles.',
          handler: async ({ storage }) => ({ data: { keys: await oidcStore.roles(storage) } }),
        },
      },
      help: { synopsis: 'List the token roles.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'oidc/role/:name',
      fields: {
        name: field.path({ description: 'Role name.' }),
        key: field.string({ description: 'The named key that signs the tokens (required).' }),
        template: field.string({
          description: 'JSON claims template (plain or base64), e.g. {"user": {{identity.entity.name}}}.',
        }),
        ttl: field.durationSeconds({ description: 'Lifetime of tokens (default 24h).' }),
        client_id: field.string({ description: 'Read only: the `aud` of the tokens (generated).' }),
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await oidcStore.role(storage, data.name);
            const key = (supplied.has('key') ? data.key : current?.key) ?? '';
            if (!key) throw new InvalidRequestError('the key parameter is required');
            if (!(await oidcStore.key(storage, key))) throw new InvalidRequestError(`key "${key}" does not exist`);
            const role: OidcRole = {
              key,
              template: (supplied.has('template') ? data.template : current?.template) ?? '',
              ttl: (supplied.has('ttl') ? data.ttl : current?.ttl) || 86_400,
              client_id: current?.client_id ?? Buffer.from(d.random.bytes(18)).toString('base64url'),
            };
            role.template = checkClaimsTemplate(role.template);
            await oidcStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        read: {
          summary: 'Read the role.',
          handler: async ({ storage, data }) => {
            const role = await oidcStore.role(storage, data.name);
            if (!role) throw new NotFoundError('');
            return { data: { ...role } };
          },
        },
        delete: {
          summary: 'Delete the role.',
          handler: async ({ storage, data }) => {
            await oidcStore.deleteRole(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an identity token role.',
        description: 'GET oidc/token/<role> issues a token signed by the role’s key.',
      },
    }),
  ];
}
