import { Router } from '@ward/base/router';

/** Parameters captured from a path: `:name` one segment, `*name` the rest (maybe empty), decoded. */
export type Params = Readonly<Record<string, string>>;

/**
 * The UI's route table on base's segment router (the one the agent and the platform use, with its
 * case suite in base's router.case.ts), with loose slashes (`/secrets/` is `/secrets`) and decoded
 * captures. A UI pattern's `*name` may be empty (`/secrets/:mount/kv/*path` answers
 * `/secrets/secret/kv`), which is base's `*name?`. The most specific pattern wins whatever the
 * order (`/policies/create` before `/policies/:name`); a malformed percent-escape matches nothing.
 */
export function routeTable<T extends { readonly pattern: string }>(
  routes: readonly T[],
): (path: string) => { route: T; params: Params } | undefined {
  const router = new Router(
    routes.map((route) => ({ method: 'GET', pattern: route.pattern.replace(/\/\*(\w+)$/, '/*$1?'), route })),
    { looseSlashes: true, decode: true },
  );
  return (path) => {
    const found = router.match('GET', path);
    if (found.kind !== 'found') return undefined;
    const { route } = found.route;
    return { route, params: keepFolderSlash(route.pattern, path, found.params) };
  };
}

/**
 * A `*name` capture keeps the path's trailing slash, which loose slashes drop: in a KV engine
 * `kv/app/` is the folder `app/`, and `kv/app` the secret `app`.
 */
function keepFolderSlash(pattern: string, path: string, params: Params): Params {
  const rest = /\/\*(\w+)$/.exec(pattern)?.[1];
  const value = rest === undefined ? undefined : params[rest];
  if (rest === undefined || !value || value.endsWith('/') || !path.endsWith('/')) return params;
  return { ...params, [rest]: `${value}/` };
}

/** A path built from segments, each encoded (a mount named `team/kv` is one segment: `team%2Fkv`). */
export function pathOf(...segments: string[]): string {
  return `/${segments.map(encodeURIComponent).join('/')}`;
}
