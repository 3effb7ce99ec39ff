import type { BackendRequest } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { Storage } from '../logical/storage.js';
import type { CapturedValues, Fields, FieldValues } from './fields.js';
import { type CompiledPattern, compilePattern } from './pattern.js';

/** The operations a path can implement (help is answered by the framework itself). */
export type PathOperation = 'read' | 'create' | 'update' | 'patch' | 'delete' | 'list';

/** What a handler gets: the request, its mount's storage, and `data` typed and coerced from `fields`. */
export interface HandlerContext<F extends Fields> {
  req: BackendRequest;
  storage: Storage;
  data: FieldValues<F>;
  /** Names of the fields the caller actually sent (to tell "absent" from "default"). */
  supplied: ReadonlySet<string>;
}

/**
 * What an existence check gets: the request, the storage and the values captured from the path only.
 * It names its target by the path, and a body field it does not read is neither parsed nor checked
 * here (the write that follows does that, after the ACL has judged the request).
 */
export interface ExistenceContext<F extends Fields> {
  req: BackendRequest;
  storage: Storage;
  data: CapturedValues<F>;
}

export type Handler<F extends Fields> = (ctx: HandlerContext<F>) => Promise<LogicalResponse | undefined>;

export interface OperationSpec<F extends Fields> {
  summary: string;
  description?: string;
  handler: Handler<F>;
}

export interface PathSpec<F extends Fields> {
  pattern: string;
  fields: F;
  operations: Partial<Record<PathOperation, OperationSpec<F>>>;
  /**
   * Whether the target of a write exists: decides `create` vs `update`, so ACL can tell
   * them apart. Without one, every write is an `update`.
   */
  existenceCheck?: (ctx: ExistenceContext<F>) => Promise<boolean>;
  /**
   * The path's state lives only in the active server's memory (leases and their timers, HA
   * membership): a performance standby hands even its reads to the active server.
   */
  forwardToActive?: boolean;
  help: { synopsis: string; description: string };
}

/** A path declaration after compilation; the type parameter is erased so backends can hold a list. */
export interface PathDefinition {
  readonly spec: PathSpec<Fields>;
  readonly pattern: CompiledPattern;
  /** Field names in lower case, computed once: every response checks input keys against them. */
  readonly knownFields: ReadonlySet<string>;
  /** Captures the router lower-cases (fields declared `caseInsensitive`); empty for most paths. */
  readonly foldedCaptures: readonly string[];
}

/**
 * Declares one path of a backend. The same declaration validates and coerces input,
 * routes operations, answers the existence check, and produces help and OpenAPI.
 */
export function definePath<F extends Fields>(spec: PathSpec<F>): PathDefinition {
  const pattern = compilePattern(spec.pattern);
  for (const name of pattern.captures) {
    if (!spec.fields[name]?.inPath) throw new Error(`path ${spec.pattern}: capture "${name}" needs a field.path()`);
  }
  const knownFields = new Set(Object.keys(spec.fields).map((k) => k.toLowerCase()));
  const foldedCaptures = pattern.captures.filter((name) => spec.fields[name]?.isCaseInsensitive);
  return { spec: spec as unknown as PathSpec<Fields>, pattern, knownFields, foldedCaptures };
}
