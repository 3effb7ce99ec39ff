import { setOwn } from '../logical/own-entries.js';
import { type JsonLimits, limitError } from './json-body.js';

/**
 * A form-encoded body (`application/x-www-form-urlencoded`) as request data, in one pass: repeated
 * keys are joined by commas, as established. Held to the listener's JSON limits (issue 28): more
 * fields than `max_json_object_entry_count` (every `k=v` pair counts), or a key or value longer
 * than `max_json_string_value_length`, is a 400 naming the limit. The pair count is checked
 * before anything is decoded, so an oversized form costs one scan of its text.
 */
export function parseFormBody(text: string, limits: JsonLimits): Record<string, unknown> {
  let pairs = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    if (++pairs > limits.maxObjectEntryCount)
      throw formLimit('max_json_object_entry_count', limits.maxObjectEntryCount);
  }
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(text)) {
    const longest = Math.max(key.length, value.length);
    if (longest > limits.maxStringValueLength) {
      throw formLimit('max_json_string_value_length', limits.maxStringValueLength);
    }
    const seen = values.get(key);
    if (seen) seen.push(value);
    else values.set(key, [value]);
  }
  const data: Record<string, unknown> = {};
  for (const [key, all] of values) {
    const joined = all.join(',');
    if (joined.length > limits.maxStringValueLength) {
      throw formLimit('max_json_string_value_length', limits.maxStringValueLength);
    }
    setOwn(data, key, joined);
  }
  return data;
}

function formLimit(setting: string, limit: number) {
  return limitError(setting, limit, 'form');
}
