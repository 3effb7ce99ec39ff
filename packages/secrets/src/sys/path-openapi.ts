import type { OpenApiRoute } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import {
  type OpenApiParameter,
  type OpenApiPathItem,
  type OpenApiPaths,
  openapiDocument,
  openapiForBackend,
} from '../framework/openapi.js';

export interface OpenApiDeps {
  /** Every mounted backend, read at request time so new mounts appear. */
  routes: () => OpenApiRoute[];
  /** Server version, reported as `info.version`. */
  version: string;
}

/** Mount types there is only ever one of: their paths stay literal with `generic_mount_paths`. */
const SINGLETON_TYPES = new Set(['system', 'identity', 'cubbyhole', 'token']);

/**
 * `sys/internal/specs/openapi`: the OpenAPI document of every mounted backend, with full
 * paths (`/secret/data/{path}`). Unauthenticated (the system backend lists it so). With
 * `generic_mount_paths=true`, each non-singleton mount becomes a path parameter
 * (`/{secret_mount_path}/data/{path}`) whose default is the real mount, for code generators.
 */
export function pathInternalSpecsOpenapi(deps: OpenApiDeps): PathDefinition {
  return definePath({
    pattern: 'internal/specs/openapi',
    fields: {
      generic_mount_paths: field.bool({
        description: 'Use generic mount paths, such as `{secret_mount_path}`, instead of the real ones.',
        default: false,
      }),
    },
    operations: {
      read: {
        summary: 'Generate an OpenAPI 3 document of all mounted paths.',
        handler: async ({ data }) => {
          const part = wholeApi(deps.routes(), data.generic_mount_paths);
          return { raw: { status: 200, body: openapiDocument(deps.version, part) } };
        },
      },
    },
    help: {
      synopsis: 'Generate an OpenAPI 3 document of all mounted paths.',
      description: 'Paths are the full API paths below `/v1/`; request bodies are in `components.schemas`.',
    },
  });
}

/** Merges the documents of all mounts, in mount-point order so `operationId` clashes resolve the same way. */
function wholeApi(routes: OpenApiRoute[], generic: boolean): OpenApiPaths {
  const out: OpenApiPaths = { paths: {}, schemas: {} };
  const usedIds = new Set<string>();
  const usedPrefixes = new Set<string>();
  const sorted = [...routes].sort((a, b) => (a.mountPoint < b.mountPoint ? -1 : 1));
  for (const route of sorted) {
    // A second mount of one type would repeat every operationId: name it after its mount too.
    const operationPrefix = usedPrefixes.has(route.type) ? `${route.type}-${words(route.mountPoint)}` : route.type;
    usedPrefixes.add(route.type);
    const part = openapiForBackend(route.backend, {
      mountPoint: route.mountPoint,
      relativePrefix: '',
      operationPrefix,
      usedIds,
    });
    const param = generic && !SINGLETON_TYPES.has(route.type) ? mountParameter(route.mountPoint) : undefined;
    const prefix = param ? mountPrefix(route.mountPoint, param.name) : `/${route.mountPoint}`;
    for (const [path, item] of Object.entries(part.paths)) {
      out.paths[prefix + path.slice(1)] = param ? withParameter(item, param) : item;
    }
    Object.assign(out.schemas, part.schemas);
  }
  return out;
}

/** `auth/my-method/` → `{my_method_mount_path}`, defaulting to the real mount. */
function mountParameter(mountPoint: string): OpenApiParameter {
  const mount = mountPoint.replace(/^auth\//, '').replace(/\/$/, '');
  return {
    name: `${mount.replace(/\W/g, '_')}_mount_path`,
    description: 'Path that the backend was mounted at',
    in: 'path',
    schema: { type: 'string', default: mount },
    required: true,
  };
}

function mountPrefix(mountPoint: string, parameter: string): string {
  return `/${mountPoint.startsWith('auth/') ? 'auth/' : ''}{${parameter}}/`;
}

function withParameter(item: OpenApiPathItem, param: OpenApiParameter): OpenApiPathItem {
  const { description, parameters = [], ...rest } = item;
  return { description, parameters: [...parameters, param], ...rest };
}

function words(mountPoint: string): string {
  return mountPoint
    .split(/\W+/)
    .filter((w) => w !== '')
    .join('-')
    .toLowerCase();
}
