import type { HelpResponse } from '@ward/secrets-client';
import { helpMarkdown } from '../framework/help.js';
import { openapiDocument, openapiForBackend } from '../framework/openapi.js';
import { UnsupportedPathError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import type { RouteMatch } from './router/router.js';

/**
 * The answer to a `help` operation (`?help=1`, spec 000 "Help response"): the raw body
 * `{help, openapi, see_also}` generated from the serving backend's path declarations.
 * `openapi` documents the queried path and everything below it, relative to it
 * (`secret/data/x` gives `/`; `secret/` gives `/config`, `/data/{path}`, …). The pipeline
 * has already checked namespace, token and ACL, as for any request.
 */
export function helpResponse({ route, relativePath }: RouteMatch, version: string): LogicalResponse {
  const help = helpMarkdown(route.backend, relativePath);
  if (help === undefined) throw new UnsupportedPathError();
  const part = openapiForBackend(route.backend, {
    mountPoint: route.mountPoint,
    relativePrefix: relativePath,
    operationPrefix: route.entry.type,
  });
  return {
    raw: {
      status: 200,
      body: { help, openapi: openapiDocument(version, part), see_also: null } satisfies HelpResponse,
    },
  };
}
