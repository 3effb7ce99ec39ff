import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { roleListPaths, roleReadDelete, tokenFields } from '../common/index.js';
import { gcpStore } from './gcp-store.js';
import { pathRoleEdits } from './path-role-edit.js';
import { roleFromInput, roleReadData } from './role-rules.js';

/** `role/:name` and LIST `role`/`roles`: `iam` and `gce` roles, and their edit paths. */
export function pathRoles(): PathDefinition[] {
  return [
    ...roleListPaths(gcpStore, ['role/', 'roles/']),
    definePath({
      pattern: 'role/:name',
      fields: {
        name: field.path({ description: 'Role name.' }),
        type: field.string({
          description: "`iam` (service accounts' signed JWTs) or `gce` (instance identity tokens).",
        }),
        bound_service_accounts: field.commaStrings({
          description: 'Service account emails or ids that may log in (`*`: any; required for iam).',
        }),
        bound_projects: field.commaStrings({ description: 'Projects the account or instance must belong to.' }),
        project_id: field.string({ description: 'Deprecated: one project, as `bound_projects`.' }),
        add_group_aliases: field.bool({
          description: 'Logins get group aliases `project-<id>`, `folder-<id>`, `organization-<id>` (ancestry).',
        }),
        max_jwt_exp: field.durationSeconds({
          description: 'iam: furthest `exp` of a login JWT (default 15m, at most 1h).',
        }),
        allow_gce_inference: field.bool({
          description: "iam: an instance identity token logs in as the instance's service account (default true).",
        }),
        bound_zones: field.commaStrings({ description: 'gce: zones the instance must be in.' }),
        bound_zone: field.string({ description: 'Deprecated: one zone.' }),
        bound_regions: field.commaStrings({ description: 'gce: regions (ignored when bound_zones is set).' }),
        bound_region: field.string({ description: 'Deprecated: one region.' }),
        bound_instance_groups: field.commaStrings({ description: 'gce: instance groups the instance must be in.' }),
        bound_instance_group: field.string({ description: 'Deprecated: one instance group.' }),
        bound_labels: field.commaStrings({ description: 'gce: `key:value` labels the instance must have.' }),
        ...tokenFields,
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await gcpStore.role(storage, data.name);
            await gcpStore.putRole(storage, data.name, roleFromInput(current, data, data, supplied));
            return undefined;
          },
        },
        ...roleReadDelete(gcpStore, { view: roleReadData }),
      },
      help: {
        synopsis: 'Manage an iam or gce role.',
        description:
          'iam: a service account in bound_service_accounts (and, if set, in one of bound_projects) logs in with a ' +
          'JWT it signed. gce: a Compute Engine instance logs in with its identity token and must match every bound_*.',
      },
    }),
    ...pathRoleEdits(),
  ];
}
