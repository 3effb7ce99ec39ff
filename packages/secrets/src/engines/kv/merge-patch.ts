import { setOwn } from '../../logical/own-entries.js';

/**
 * RFC 7396 JSON merge patch: `null` removes a key, objects merge recursively, anything else
 * replaces. An object patching a non-object is merged into `{}`, so its nulls vanish too.
 */
export function applyMergePatch(target: Record<string, unknown>, patch: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isPlainObject(value)) {
      const current = Object.hasOwn(out, key) ? out[key] : undefined;
      setOwn(out, key, applyMergePatch(isPlainObject(current) ? current : {}, value));
    } else setOwn(out, key, value);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
