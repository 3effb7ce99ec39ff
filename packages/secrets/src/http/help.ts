import type { Core } from '../core/core.js';
import { helpMarkdown } from '../framework/help.js';
import { openapiDocument, openapiForBackend } from '../framework/openapi.js';
import { PermissionDeniedError, SealedError, UnsupportedPathError } from '../logical/errors.js';

/**
 * `?help=1` (spec 000, "Help response"): the raw body `{help, openapi, see_also}` for the
 * backend serving `path`, generated from its path declarations. `openapi` documents the
 * queried path and everything below it, with paths relative to the queried path
 * (`secret/data/x` gives `/`; `secret/` gives `/config`, `/data/{path}`, …).
 * Any valid token may read help; none is a 403 like any other request; a path its mount
 * does not serve is a 404 `unsupported path`.
 */
export async function handleHelp(core: Core, path: string, token: string) {
  if (core.isSealed()) throw new SealedError();
  if (!(await core.tokens.lookup(token))) throw PermissionDeniedError.token();
  const { route, relativePath } = core.router.match(path);
  const help = helpMarkdown(route.backend, relativePath);
  if (help === undefined) throw new UnsupportedPathError();
  const part = openapiForBackend(route.backend, {
    mountPoint: route.mountPoint,
    relativePrefix: relativePath,
    operationPrefix: route.entry.type,
  });
  return { help, openapi: openapiDocument(core.version, part), see_also: null };
}
