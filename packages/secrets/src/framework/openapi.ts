import type { Backend } from './backend.js';
import type { FieldSpec, Fields, OpenApiType } from './fields.js';
import type { OperationSpec, PathDefinition } from './path.js';

/**
 * OpenAPI 3.0.2 from path declarations, after OpenBao's `sdk/framework/openapi.go`: one path
 * item per pattern (optional captures expand into a path with and one without them), path
 * captures as `in: path` parameters, one operation per verb, the other fields as a JSON
 * request body in `components.schemas`, and the `x-vault-*` extensions. Keys come out sorted
 * so that a document is a pure function of the declarations (golden files pin it).
 */

export interface OpenApiSchema extends Partial<OpenApiType> {
  description?: string;
  default?: unknown;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  enum?: readonly string[];
  $ref?: string;
  /** `sensitive`: a secret never read back (`FieldSpec.isSensitive`), the established servers' mark. */
  'x-vault-displayAttrs'?: { sensitive: true };
}

export interface OpenApiParameter {
  name: string;
  description?: string;
  in: 'path' | 'query';
  schema: OpenApiSchema;
  required?: boolean;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: Record<string, { schema: OpenApiSchema }> };
  responses: Record<string, { description: string }>;
}

export interface OpenApiPathItem {
  description?: string;
  parameters?: OpenApiParameter[];
  'x-vault-sudo'?: true;
  'x-vault-unauthenticated'?: true;
  'x-vault-create-supported'?: true;
  get?: OpenApiOperation;
  post?: OpenApiOperation;
  patch?: OpenApiOperation;
  delete?: OpenApiOperation;
}

/** The `paths` and request schemas of one backend (or part of one). */
export interface OpenApiPaths {
  paths: Record<string, OpenApiPathItem>;
  schemas: Record<string, OpenApiSchema>;
}

export interface OpenApiDocument {
  openapi: '3.0.2';
  info: { title: string; description: string; version: string; license: { name: string } };
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, OpenApiSchema> };
}

export interface OpenApiOptions {
  /** The backend's mount point (`secret/`, `auth/token/`, `sys/`): decides the operations' tag. */
  mountPoint: string;
  /**
   * Document only the paths at or below this mount-relative path, relative to it
   * (`data/x` turns `/data/{path}` into `/`); `''` documents the whole backend.
   */
  relativePrefix: string;
  /** First word of every `operationId` and request schema name; the backend's type by default. */
  operationPrefix?: string;
  /** `operationId`s already taken in the document this part joins; new ones are added. */
  usedIds?: Set<string>;
}

/** A pattern segment: literal text, one captured segment, or a greedy capture of the rest. */
interface Segment {
  kind: 'literal' | 'one' | 'rest';
  text: string;
}

/** The OpenAPI `paths` (and request schemas) of the backend's path declarations that match `options`. */
export function openapiForBackend(backend: Backend, options: OpenApiOptions): OpenApiPaths {
  const out: OpenApiPaths = { paths: {}, schemas: {} };
  const ctx = {
    backend,
    tag: tagOf(options.mountPoint),
    prefix: options.operationPrefix ?? backend.type,
    usedIds: options.usedIds ?? new Set<string>(),
    out,
  };
  for (const def of backend.paths) {
    for (const segments of expandPattern(def.spec.pattern)) {
      const relative = relativeSegments(segments, options.relativePrefix);
      if (!relative) continue;
      const key = `/${relative.map(segmentText).join('/')}`;
      // The first declaration that matches a path serves it, so it is the one documented.
      if (!(key in out.paths)) out.paths[key] = pathItem(ctx, def, segments, relative);
    }
  }
  return { paths: sortKeys(out.paths), schemas: sortKeys(out.schemas) };
}

/** Wraps generated paths into a whole OpenAPI document. */
export function openapiDocument(version: string, part: OpenApiPaths): OpenApiDocument {
  return {
    openapi: '3.0.2',
    info: {
      title: 'Ward API',
      description: 'HTTP API that gives you full access to Ward. All API routes are prefixed with `/v1/`.',
      version,
      license: { name: 'UNLICENSED' },
    },
    paths: sortKeys(part.paths),
    components: { schemas: sortKeys(part.schemas) },
  };
}

/** Whether `def` serves `relativePath` or a path below it (help lists exactly these). */
export function isAtOrBelow(def: PathDefinition, relativePath: string): boolean {
  return expandPattern(def.spec.pattern).some((s) => relativeSegments(s, relativePath) !== undefined);
}

function tagOf(mountPoint: string): string {
  if (mountPoint === 'sys/') return 'system';
  if (mountPoint === 'identity/') return 'identity';
  return mountPoint.startsWith('auth/') ? 'auth' : 'secrets';
}

/** Segments of a pattern; an optional capture (`*path?`) gives one variant with and one without it. */
function expandPattern(source: string): Segment[][] {
  let variants: Segment[][] = [[]];
  for (const part of source.split('/')) {
    const m = /^([:*])([a-z_][a-z0-9_]*)(\?)?$/.exec(part);
    const seg: Segment = m
      ? { kind: m[1] === '*' ? 'rest' : 'one', text: m[2] ?? '' }
      : { kind: 'literal', text: part };
    const without: Segment = { kind: 'literal', text: '' };
    variants = variants.flatMap((v) =>
      m?.[3]
        ? [
            [...v, seg],
            [...v, without],
          ]
        : [[...v, seg]],
    );
  }
  return variants;
}

/**
 * The segments left once a mount-relative query path has consumed the pattern's leading
 * segments, or `undefined` when the pattern serves nothing at or below the query.
 * A greedy capture consumes whatever is left of the query.
 */
function relativeSegments(segments: Segment[], query: string): Segment[] | undefined {
  const parts = query === '' ? [] : query.replace(/\/$/, '').split('/');
  let i = 0;
  for (const part of parts) {
    const seg = segments[i];
    if (!seg || (seg.kind === 'literal' && seg.text !== part)) return undefined;
    i++;
    if (seg.kind === 'rest') break;
  }
  return segments.slice(i);
}

function segmentText(seg: Segment): string {
  return seg.kind === 'literal' ? seg.text : `{${seg.text}}`;
}

interface ItemContext {
  backend: Backend;
  tag: string;
  prefix: string;
  usedIds: Set<string>;
  out: OpenApiPaths;
}

function pathItem(ctx: ItemContext, def: PathDefinition, full: Segment[], relative: Segment[]): OpenApiPathItem {
  const { fields, operations: ops, help } = def.spec;
  const fullPath = full.map(segmentText).join('/');
  const special = ctx.backend.specialPaths;
  const item: OpenApiPathItem = { description: cleanString(help.synopsis) };
  const params = relative
    .filter((s) => s.kind !== 'literal')
    .map((s): OpenApiParameter => pathParameter(s.text, fields[s.text]));
  if (params.length > 0) item.parameters = params.sort((a, b) => compare(a.name, b.name));
  if (specialPathMatch(fullPath, special.root)) item['x-vault-sudo'] = true;
  if (specialPathMatch(fullPath, special.unauthenticated)) item['x-vault-unauthenticated'] = true;
  const op = (verb: string, spec: OperationSpec<Fields> | undefined, parameters?: OpenApiParameter[]) =>
    spec && operation(ctx, fullPath, verb, spec, parameters);
  const get = ops.read
    ? op('read', ops.read, ops.list && [listParameter('Return a list if `true`', false)])
    : op('list', ops.list, [listParameter('Must be set to `true`', true)]);
  // Writes to a path ending in `/` are refused before routing: only reads and deletes reach it.
  const isWritable = !fullPath.endsWith('/') && fullPath !== '';
  const post = isWritable ? (ops.update ? op('write', ops.update) : op('create', ops.create)) : undefined;
  const patch = isWritable ? op('patch', ops.patch) : undefined;
  if (post && def.spec.existenceCheck) item['x-vault-create-supported'] = true;
  const del = op('delete', ops.delete);
  if (get) item.get = get;
  if (post) item.post = withBody(ctx, post, fields, 'application/json');
  if (patch) item.patch = withBody(ctx, patch, fields, 'application/merge-patch+json');
  if (del) item.delete = { ...del, responses: { '204': { description: 'empty body' } } };
  return item;
}

function pathParameter(name: string, spec: FieldSpec<unknown> | undefined): OpenApiParameter {
  const description = cleanString(spec?.description ?? '');
  return { name, ...(description ? { description } : {}), in: 'path', schema: { type: 'string' }, required: true };
}

/** LIST is a GET with `list=true`, as established clients send it. */
function listParameter(description: string, required: boolean): OpenApiParameter {
  const schema: OpenApiSchema = required ? { type: 'string', enum: ['true'] } : { type: 'string' };
  return { name: 'list', description, in: 'query', schema, ...(required ? { required } : {}) };
}

function operation(
  ctx: ItemContext,
  fullPath: string,
  verb: string,
  spec: { summary: string; description?: string },
  parameters: OpenApiParameter[] | undefined,
): OpenApiOperation {
  return {
    summary: cleanString(spec.summary),
    ...(spec.description ? { description: cleanString(spec.description) } : {}),
    operationId: uniqueId(ctx.usedIds, hyphenate([ctx.prefix, verb, ...fullPath.split(/[^\w]+/)])),
    tags: [ctx.tag],
    ...(parameters ? { parameters } : {}),
    responses: { '200': { description: 'OK' } },
  };
}

/** Adds the fields not captured from the path as the operation's request body. */
function withBody(ctx: ItemContext, op: OpenApiOperation, fields: Fields, mediaType: string): OpenApiOperation {
  const body = Object.entries(fields)
    .filter(([, f]) => !f.inPath)
    .sort(([a], [b]) => compare(a, b));
  if (body.length === 0) return op;
  const required = body.filter(([, f]) => f.required).map(([name]) => name);
  const schema: OpenApiSchema = {
    type: 'object',
    properties: Object.fromEntries(body.map(([name, f]) => [name, fieldSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
  };
  const name = `${op.operationId
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Request`;
  ctx.out.schemas[name] = schema;
  const requestBody = {
    required: true as const,
    content: { [mediaType]: { schema: { $ref: `#/components/schemas/${name}` } } },
  };
  const { responses, ...rest } = op;
  return { ...rest, requestBody, responses };
}

function fieldSchema(f: FieldSpec<unknown>): OpenApiSchema {
  const description = cleanString(f.description);
  return {
    type: f.openapi.type,
    ...(f.openapi.format ? { format: f.openapi.format } : {}),
    ...(f.openapi.items ? { items: { ...f.openapi.items } } : {}),
    ...(f.openapi.enum ? { enum: [...f.openapi.enum] } : {}),
    ...(description ? { description } : {}),
    ...(f.default !== undefined ? { default: schemaDefault(f) } : {}),
    ...(f.isSensitive ? { 'x-vault-displayAttrs': { sensitive: true as const } } : {}),
  };
}

/** A duration field is a string in the schema (`"1h"` or `"30"`), so its numeric default is shown as one. */
function schemaDefault(f: FieldSpec<unknown>): unknown {
  return f.openapi.type === 'string' && typeof f.default === 'number' ? String(f.default) : f.default;
}

/** Special-path globs as the router reads them: exact, or a prefix when ending in `*`. */
function specialPathMatch(path: string, globs: readonly string[] | undefined): boolean {
  return (globs ?? []).some((glob) => (glob.endsWith('*') ? path.startsWith(glob.slice(0, -1)) : path === glob));
}

function hyphenate(words: string[]): string {
  return words
    .filter((w) => w !== '')
    .join('-')
    .toLowerCase();
}

/** An `operationId` must be unique in its document; a clash gets `-2`, `-3`, … */
function uniqueId(used: Set<string>, id: string): string {
  let candidate = id;
  for (let n = 2; used.has(candidate); n++) candidate = `${id}-${n}`;
  used.add(candidate);
  return candidate;
}

function cleanString(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Code-point order: the same on every machine, whatever its locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)));
}
