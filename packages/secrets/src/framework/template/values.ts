import { CodedError } from '@ward/base';

/**
 * A template value. Go strings are bytes: a `Buffer` is a byte string that is not (or need not
 * be) UTF-8, such as the output of `utf16le`, and reaches `base64` or the output byte-exact.
 */
export type Value = string | number | boolean | null | Buffer;

/** A template that does not parse or fails to render; the message names the problem. */
export class TemplateError extends CodedError<'template_failed'> {
  readonly code = 'template_failed';
}

/** The bytes of a value as Go would hold them. */
export function bytesOf(value: Value): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(textOf(value), 'utf8');
}

/** A value as text (bytes read as UTF-8). */
export function textOf(value: Value): string {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value === null) return '<no value>';
  return String(value);
}

/** Go's truth: false, 0, nil and empty strings are false. */
export function isTrue(value: Value): boolean {
  if (Buffer.isBuffer(value)) return value.length > 0;
  return value !== null && value !== false && value !== 0 && value !== '';
}
