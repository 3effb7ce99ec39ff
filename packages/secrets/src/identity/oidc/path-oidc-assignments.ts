import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { checkClaimsTemplate } from './claims-template.js';
import type { ProviderDeps } from './provider-deps.js';
import { ALLOW_ALL_ASSIGNMENT, providerStore } from './provider-store.js';

const unique = (xs: readonly string[]) => [...new Set(xs)];
const lowerIds = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());

/** `oidc/assignment/:name` and LIST `oidc/assignment`: who may sign in through the clients naming it. */
export function pathOidcAssignments(d: ProviderDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/assignment/',
      fields: {},
      operations: {
        list: {
          summary: 'List the assignments.',
          handler: async ({ storage }) => {
            await d.ensureDefaults(storage);
            return { data: { keys: await providerStore.assignments(storage) } };
          },
        },
      },
      help: { synopsis: 'List the OIDC assignments.', description: 'allow_all is always there.' },
    }),
    definePath({
      pattern: 'oidc/assignment/:name',
      fields: {
        name: field.path({ description: 'Name of the assignment.' }),
        entity_ids: field.commaStrings({ description: 'Identity entity ids (comma-separated or a list).' }),
        group_ids: field.commaStrings({ description: 'Identity group ids; members, direct or inherited, are let in.' }),
      },
      existenceCheck: async ({ storage, data }) => (await providerStore.assignment(storage, data.name)) !== undefined,
      operations: {
        update: {
          summary: 'Create or update the assignment.',
          handler: async ({ storage, data, supplied }) => {
            if (data.name === ALLOW_ALL_ASSIGNMENT)
              throw new InvalidRequestError(`modification of assignment "${ALLOW_ALL_ASSIGNMENT}" not allowed`);
            const current = await providerStore.assignment(storage, data.name);
            const pick = (k: 'entity_ids' | 'group_ids') =>
              unique(lowerIds((supplied.has(k) ? data[k] : current?.[k]) ?? []));
            await providerStore.putAssignment(storage, data.name, {
              entity_ids: pick('entity_ids'),
              group_ids: pick('group_ids'),
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read the assignment.',
          handler: async ({ storage, data }) => {
            await d.ensureDefaults(storage);
            const a = await providerStore.assignment(storage, data.name);
            return a && { data: { group_ids: a.group_ids, entity_ids: a.entity_ids } };
          },
        },
        delete: {
          summary: 'Delete the assignment (refused while a client names it).',
          handler: async ({ storage, data }) => {
            if (data.name === ALLOW_ALL_ASSIGNMENT)
              throw new InvalidRequestError(`deletion of assignment "${ALLOW_ALL_ASSIGNMENT}" not allowed`);
            const users = (await providerStore.clients(storage)).filter((c) => c.assignments.includes(data.name));
            if (users.length > 0)
              throw new InvalidRequestError(
                `unable to delete assignment "${data.name}" because it is currently referenced by these clients: ${users.map((c) => c.name).join(', ')}`,
              );
            await providerStore.deleteAssignment(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an OIDC assignment.',
        description: 'A client lets in the entities and group members of the assignments it names.',
      },
    }),
  ];
}

/** `oidc/scope/:name` and LIST `oidc/scope`: claims a provider adds when a client asks for the scope. */
export function pathOidcScopes(): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/scope/',
      fields: {},
      operations: {
        list: {
          summary: 'List the scopes.',
          handler: async ({ storage }) => ({ data: { keys: await providerStore.scopes(storage) } }),
        },
      },
      help: { synopsis: 'List the OIDC scopes.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'oidc/scope/:name',
      fields: {
        name: field.path({ description: 'Name of the scope.' }),
        template: field.string({ description: 'JSON claims template (plain or base64).' }),
        description: field.string({ description: 'What the scope is for.' }),
      },
      existenceCheck: async ({ storage, data }) => (await providerStore.scope(storage, data.name)) !== undefined,
      operations: {
        update: {
          summary: 'Create or update the scope.',
          handler: async ({ storage, data, supplied }) => {
            if (data.name === 'openid') throw new InvalidRequestError('the "openid" scope name is reserved');
            const current = await providerStore.scope(storage, data.name);
            const raw = (supplied.has('template') ? data.template : current?.template) ?? '';
            await providerStore.putScope(storage, data.name, {
              template: checkClaimsTemplate(raw),
              description: (supplied.has('description') ? data.description : current?.description) ?? '',
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read the scope.',
          handler: async ({ storage, data }) => {
            const s = await providerStore.scope(storage, data.name);
            return s && { data: { template: s.template, description: s.description } };
          },
        },
        delete: {
          summary: 'Delete the scope (refused while a provider supports it).',
          handler: async ({ storage, data }) => {
            const users: string[] = [];
            for (const name of await providerStore.providers(storage))
              if ((await providerStore.provider(storage, name))?.scopes_supported.includes(data.name)) users.push(name);
            if (users.length > 0)
              throw new InvalidRequestError(
                `unable to delete scope "${data.name}" because it is currently referenced by these providers: ${users.join(', ')}`,
              );
            await providerStore.deleteScope(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an OIDC scope.',
        description: 'Its template fills claims from the entity, e.g. {"groups": {{identity.entity.groups.names}}}.',
      },
    }),
  ];
}
