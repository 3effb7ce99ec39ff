import { InvalidRequestError, UnprocessableError } from '../jsonapi/errors.js';

/**
 * The `data.attributes` of a request document whose `data.type` is `type`. A document of the
 * wrong shape is a 400; attribute values are checked by the readers below (422).
 */
export function attributesOf(body: unknown, type: string): Record<string, unknown> {
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data)) throw new InvalidRequestError('the request document needs a data object', pointer('/data'));
  if (data.type !== type) throw new InvalidRequestError(`data.type must be "${type}"`, pointer('/data/type'));
  const attributes = data.attributes ?? {};
  if (!isObject(attributes))
    throw new InvalidRequestError('data.attributes must be an object', pointer('/data/attributes'));
  return attributes;
}

interface StringRule {
  pattern?: RegExp;
  /** Completes "<name> …" in the 422 detail when the value does not match. */
  hint?: string;
}

/** A string attribute that must be present and match `pattern` (422 otherwise). */
export function requiredString(attributes: Record<string, unknown>, name: string, rule: StringRule = {}): string {
  const value = stringAttribute(attributes, name, { ...rule, required: true });
  if (value === undefined) throw new UnprocessableError(`${name} is required`, pointer(`/data/attributes/${name}`));
  return value;
}

/** A string attribute that may be absent or null, else must match `pattern`. */
export function optionalString(
  attributes: Record<string, unknown>,
  name: string,
  rule: StringRule = {},
): string | undefined {
  return stringAttribute(attributes, name, { ...rule, required: false });
}

function stringAttribute(
  attributes: Record<string, unknown>,
  name: string,
  rule: StringRule & { required: boolean },
): string | undefined {
  const value = attributes[name];
  if (value === undefined || value === null) {
    if (rule.required) throw new UnprocessableError(`${name} is required`, pointer(`/data/attributes/${name}`));
    return undefined;
  }
  if (typeof value !== 'string' || (rule.pattern && !rule.pattern.test(value))) {
    throw new UnprocessableError(`${name} ${rule.hint ?? 'is invalid'}`, pointer(`/data/attributes/${name}`));
  }
  return value;
}

/** An optional ISO 8601 timestamp attribute, as milliseconds. */
export function timestampAttribute(attributes: Record<string, unknown>, name: string): number | null {
  const value = attributes[name];
  if (value === undefined || value === null) return null;
  const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw new UnprocessableError(`${name} must be an ISO 8601 timestamp`, pointer(`/data/attributes/${name}`));
  return ms;
}

/** An optional expiry time, which must lie after `nowMs`: a token born expired is a mistake (422). */
export function expiryAttribute(attributes: Record<string, unknown>, name: string, nowMs: number): number | null {
  const ms = timestampAttribute(attributes, name);
  if (ms !== null && ms <= nowMs) {
    throw new UnprocessableError(`${name} must be in the future`, pointer(`/data/attributes/${name}`));
  }
  return ms;
}

export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointer(p: string) {
  return { source: { pointer: p } };
}
