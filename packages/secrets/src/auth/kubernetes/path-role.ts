import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, roleListPaths, roleReadDelete, tokenFields } from '../common/index.js';
import { type KubernetesRole, k8sStore } from './k8s-store.js';
import { parseSelector } from './namespace-selector.js';

/** `role/:name` and LIST `role/`. */
export function pathRoles(): PathDefinition[] {
  return [
    ...roleListPaths(k8sStore),
    definePath({
      pattern: 'role/:name',
      fields: {
        name: field.path({ description: 'Role name (case-insensitive).', caseInsensitive: true }),
        bound_service_account_names: field.commaStrings({
          description: 'Service account names (`*`: any; globs with `*`).',
        }),
        bound_service_account_namespaces: field.commaStrings({ description: 'Namespaces (`*`: any; globs with `*`).' }),
        bound_service_account_namespace_selector: field.string({
          description: 'Label selector (JSON: matchLabels, matchExpressions) binding namespaces by their labels.',
        }),
        audience: field.string({ description: 'The audience the JWT must carry (and TokenReview checks).' }),
        alias_name_source: field.string({
          description: '`serviceaccount_uid` (default) or `serviceaccount_name` (<namespace>/<name>).',
        }),
        ...tokenFields,
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await k8sStore.role(storage, data.name);
            const source =
              (supplied.has('alias_name_source') ? data.alias_name_source : current?.alias_name_source) ||
              'serviceaccount_uid';
            if (source !== 'serviceaccount_uid' && source !== 'serviceaccount_name')
              throw new InvalidRequestError(`invalid alias_name_source: ${source}`);
            const role: KubernetesRole = {
              bound_service_account_names: supplied.has('bound_service_account_names')
                ? (data.bound_service_account_names ?? [])
                : (current?.bound_service_account_names ?? []),
              bound_service_account_namespaces: supplied.has('bound_service_account_namespaces')
                ? (data.bound_service_account_namespaces ?? [])
                : (current?.bound_service_account_namespaces ?? []),
              bound_service_account_namespace_selector: supplied.has('bound_service_account_namespace_selector')
                ? (data.bound_service_account_namespace_selector ?? '')
                : (current?.bound_service_account_namespace_selector ?? ''),
              audience: supplied.has('audience') ? (data.audience ?? '') : (current?.audience ?? ''),
              alias_name_source: source,
              token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
            };
            if (role.bound_service_account_names.length === 0)
              throw new InvalidRequestError('"bound_service_account_names" can not be empty');
            parseSelector(role.bound_service_account_namespace_selector ?? '');
            if (role.bound_service_account_namespaces.length === 0 && !role.bound_service_account_namespace_selector)
              throw new InvalidRequestError(
                '"bound_service_account_namespaces" can not be empty if "bound_service_account_namespace_selector" is not set',
              );
            for (const [label, list] of [
              ['bound_service_account_names', role.bound_service_account_names],
              ['bound_service_account_namespaces', role.bound_service_account_namespaces],
            ] as const)
              if (list.length > 1 && list.includes('*'))
                throw new InvalidRequestError(`can not mix "*" with values in "${label}"`);
            await k8sStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        ...roleReadDelete(k8sStore),
      },
      help: {
        synopsis: 'Manage a Kubernetes role.',
        description: 'A service account whose name and namespace are bound logs in with its JWT.',
      },
    }),
  ];
}
