import type { Clock, Random } from '@ward/base';
import { checkTtls, definePath, field, listPath, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import {
  type AzureEngineRole,
  type AzureGroupMembership,
  type AzureRoleAssignment,
  azureStore,
} from './azure-store.js';
import { type AzureClients, clientsFor } from './clients.js';
import type { AzureAccess } from './clouds.js';
import { GraphNotFoundError } from './graph.js';
import { createServicePrincipalApp, deleteApp } from './service-principals.js';

export interface RoleDeps {
  access: AzureAccess;
  clock: Clock;
  random: Random;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Each `azure_roles` entry with both its id and its name, asked of Resource Manager. */
async function resolveRoles(c: AzureClients, raw: Record<string, unknown>[]): Promise<AzureRoleAssignment[]> {
  const out: AzureRoleAssignment[] = [];
  for (const r of raw) {
    const scope = text(r.scope);
    if (!scope) throw new InvalidRequestError('every azure_roles entry needs a scope');
    const roleId = text(r.role_id);
    const roleName = text(r.role_name);
    if (!roleId && !roleName) throw new InvalidRequestError('every azure_roles entry needs role_name or role_id');
    const def = roleId ? await c.authorization.roleById(roleId) : await c.authorization.roleByName(scope, roleName);
    out.push({ role_name: def.roleName || roleName, role_id: def.id, scope });
  }
  return out;
}

/** Each `azure_groups` entry with its object id (looked up by name when not given). */
async function resolveGroups(c: AzureClients, raw: Record<string, unknown>[]): Promise<AzureGroupMembership[]> {
  const out: AzureGroupMembership[] = [];
  for (const g of raw) {
    const name = text(g.group_name);
    let id = text(g.object_id);
    if (!name && !id) throw new InvalidRequestError('every azure_groups entry needs group_name or object_id');
    try {
      if (id) await c.graph.groupExists(id);
      else id = await c.graph.groupByName(name);
    } catch (err) {
      if (err instanceof GraphNotFoundError) throw new InvalidRequestError(`group not found: ${name || id}`);
      throw err;
    }
    out.push({ group_name: name, object_id: id });
  }
  return out;
}

/** `roles/:name` and LIST `roles`. */
export function pathRoles(d: RoleDeps): PathDefinition[] {
  return [
    listPath('roles/', (storage) => azureStore.roles(storage)),
    definePath({
      pattern: 'roles/:name',
      fields: {
        name: field.path({ description: 'Role name.' }),
        azure_roles: field.objects({ description: 'JSON list of {role_name or role_id, scope}: roles assigned.' }),
        azure_groups: field.objects({ description: 'JSON list of {group_name or object_id}: groups joined.' }),
        application_object_id: field.string({ description: 'An existing application: credentials are its passwords.' }),
        persist_app: field.bool({ description: 'One application for the role; a password per credential.' }),
        ttl: field.durationSeconds({ description: 'Default lease TTL of credentials.' }),
        max_ttl: field.durationSeconds({ description: 'Maximum lease TTL of credentials.' }),
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await azureStore.role(storage, data.name);
            const role: AzureEngineRole = {
              azure_roles: current?.azure_roles ?? [],
              azure_groups: current?.azure_groups ?? [],
              application_object_id: supplied.has('application_object_id')
                ? (data.application_object_id ?? '')
                : (current?.application_object_id ?? ''),
              persist_app: supplied.has('persist_app') ? Boolean(data.persist_app) : (current?.persist_app ?? false),
              ttl: supplied.has('ttl') ? (data.ttl ?? 0) : (current?.ttl ?? 0),
              max_ttl: supplied.has('max_ttl') ? (data.max_ttl ?? 0) : (current?.max_ttl ?? 0),
            };
            checkTtls(role.ttl, role.max_ttl);
            const c = await clientsFor(d.access, storage);
            if (supplied.has('azure_roles')) role.azure_roles = await resolveRoles(c, data.azure_roles ?? []);
            if (supplied.has('azure_groups')) role.azure_groups = await resolveGroups(c, data.azure_groups ?? []);
            if (role.azure_roles.length === 0 && role.azure_groups.length === 0 && !role.application_object_id)
              throw new InvalidRequestError(
                'either Azure role definitions, group definitions, or an Application Object ID must be provided',
              );
            if (role.application_object_id) {
              try {
                await c.graph.getApplication(role.application_object_id);
              } catch (err) {
                if (err instanceof GraphNotFoundError)
                  throw new InvalidRequestError(`application '${role.application_object_id}' not found`);
                throw err;
              }
            }
            if (role.persist_app && !role.application_object_id && current?.managed_app)
              role.managed_app = current.managed_app;
            if (role.persist_app && !role.application_object_id && !role.managed_app)
              role.managed_app = await createServicePrincipalApp(c, role, data.name, d);
            if (current?.managed_app && !role.managed_app) await deleteApp(c, current.managed_app);
            await azureStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        read: {
          summary: 'Read the role.',
          handler: async ({ storage, data }) => {
            const role = await azureStore.role(storage, data.name);
            if (!role) throw new NotFoundError('');
            const { managed_app: _kept, ...shown } = role;
            return { data: shown };
          },
        },
        delete: {
          summary: 'Delete the role (and the application kept for persist_app).',
          handler: async ({ storage, data }) => {
            const role = await azureStore.role(storage, data.name);
            if (role?.managed_app) await deleteApp(await clientsFor(d.access, storage), role.managed_app);
            await azureStore.deleteRole(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a role of the Azure engine.',
        description:
          'With azure_roles/azure_groups, each credential is a new application and service principal with those ' +
          'role assignments and group memberships (persist_app: one kept for the role); with application_object_id, ' +
          'each credential is a new password of that existing application.',
      },
    }),
  ];
}
