import type { Core } from '../core/core.js';
import { PermissionDeniedError, SealedError } from '../logical/errors.js';

/**
 * `?help=1`: the help of the backend serving `path`, from its path declarations.
 * Any valid token may read help; none is a 403 like any other request.
 */
export async function handleHelp(core: Core, path: string, token: string) {
  if (core.isSealed()) throw new SealedError();
  if (!(await core.tokens.lookup(token))) throw PermissionDeniedError.token();
  const { route, relativePath } = core.router.match(path);
  const { backend } = route;
  const lines = [`## DESCRIPTION`, '', backend.help, '', '## PATHS', ''];
  for (const def of backend.paths) {
    if (relativePath !== '' && !def.pattern.match(relativePath) && !def.spec.pattern.startsWith(relativePath)) continue;
    lines.push(`### ${def.pattern.openapiPath}`, '', def.spec.help.synopsis, '', def.spec.help.description, '');
  }
  return { help: lines.join('\n'), see_also: null };
}
