import { InvalidRequestError } from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { Storage } from '../logical/storage.js';
import type { Fields } from './fields.js';
import type { HandlerContext, PathDefinition } from './path.js';

/**
 * A handler's input, walked once per request: each declared field from the path's captures or the
 * body (names matched case-insensitively when the exact one is absent, as established), parsed and
 * checked; and the warnings an answer carries about parameters the path ignored or overrode.
 */

export function buildContext(
  def: PathDefinition,
  req: BackendRequest,
  storage: Storage,
  captured: Record<string, string>,
): HandlerContext<Fields> {
  const data: Record<string, unknown> = {};
  const supplied = new Set<string>();
  const isWrite = req.operation === 'create' || req.operation === 'update';
  const input = req.data;
  let byLowerName: ReadonlyMap<string, string> | undefined;
  const list = fieldList(def.spec.fields);
  for (const [name, spec, lowerName] of list.entries) {
    let raw: unknown;
    if (Object.hasOwn(captured, name)) raw = captured[name];
    else if (Object.hasOwn(input, name)) raw = input[name];
    else {
      // Field names match case-insensitively when the exact name is absent (established behaviour).
      byLowerName ??= lowerCaseNames(input, list);
      const key = byLowerName.get(lowerName);
      raw = key === undefined ? undefined : input[key];
    }
    if (raw === undefined || raw === null) {
      if (!spec.inPath && isRequired(spec, req.operation, isWrite)) {
        throw new InvalidRequestError(`missing required field "${name}"`);
      }
      data[name] = spec.default;
      continue;
    }
    supplied.add(name);
    data[name] = spec.parse(raw, name);
  }
  return { req, storage, data, supplied } as HandlerContext<Fields>;
}

/** `required` means every write; `requiredFor` names operations, `create` and `update` standing for each other. */
function isRequired(spec: Fields[string], operation: string, isWrite: boolean): boolean {
  if (spec.required && isWrite) return true;
  const twin = operation === 'create' ? 'update' : operation === 'update' ? 'create' : operation;
  return spec.requiredFor.includes(operation) || spec.requiredFor.includes(twin);
}

type FieldEntry = readonly [name: string, spec: Fields[string], lowerName: string];

/** A path's fields as a list with their lower-case names, made once per declaration (every request walks it). */
interface FieldList {
  readonly entries: readonly FieldEntry[];
  readonly fields: Fields;
  /** Two fields whose names differ only in case: then a key naming one exactly may still stand for the other. */
  readonly caseTwins: boolean;
}

const FIELD_LISTS = new WeakMap<Fields, FieldList>();

function fieldList(fields: Fields): FieldList {
  let list = FIELD_LISTS.get(fields);
  if (!list) {
    const entries = Object.entries(fields).map(([name, spec]) => [name, spec, name.toLowerCase()] as const);
    const caseTwins = new Set(entries.map(([, , lower]) => lower)).size < entries.length;
    list = { entries, fields, caseTwins };
    FIELD_LISTS.set(fields, list);
  }
  return list;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/**
 * The request's keys by their lower-case form, the first one of each (as a scan in key order finds
 * it), for the fields whose exact name is absent. A key that is itself a field's exact name can only
 * stand for a case twin of that field, so without twins such keys are left out: a request sending
 * only declared names (the usual case) builds nothing here.
 */
function lowerCaseNames(data: Record<string, unknown>, list: FieldList): ReadonlyMap<string, string> {
  let names: Map<string, string> | undefined;
  for (const key of Object.keys(data)) {
    if (!list.caseTwins && Object.hasOwn(list.fields, key)) continue;
    const lower = key.toLowerCase();
    names ??= new Map();
    if (!names.has(lower)) names.set(lower, key);
  }
  return names ?? NO_NAMES;
}

export function withParameterWarnings(
  response: LogicalResponse | undefined,
  def: PathDefinition,
  input: Record<string, unknown>,
  captured: Record<string, string>,
): LogicalResponse | undefined {
  if (!response || response.raw) return response;
  // Established order: ignored parameters first, then parameters the path overrode.
  const ignored = response.data ? unknownKeys(def, input) : [];
  const replaced = def.pattern.captures.filter((k) => Object.hasOwn(captured, k) && Object.hasOwn(input, k));
  if (ignored.length === 0 && replaced.length === 0) return response;
  const warnings = [...(response.warnings ?? [])];
  if (ignored.length > 0) {
    warnings.push(`Endpoint ignored these unrecognized parameters: [${ignored.sort().join(' ')}]`);
  }
  if (replaced.length > 0) {
    warnings.push(
      `Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [${replaced.sort().join(' ')}]`,
    );
  }
  return { ...response, warnings };
}

/** The request's keys that name no field of the path, in any case. */
function unknownKeys(def: PathDefinition, input: Record<string, unknown>): string[] {
  const fields = def.spec.fields;
  return Object.keys(input).filter((k) => !Object.hasOwn(fields, k) && !def.knownFields.has(k.toLowerCase()));
}
