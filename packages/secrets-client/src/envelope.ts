import type { RawResponse, Transport } from './transport.js';
import type { Secret } from './types.js';

/**
 * The established reading of an answer: 204 → null; 404 with an empty `errors` → null (nothing
 * there); 404 carrying a full envelope (a deleted KV version) → that envelope; other ≥ 400 → ApiError.
 */
export function envelopeOrNull(res: RawResponse, method: string, t: Transport, path: string): Secret | null {
  const body = (typeof res.body === 'object' ? res.body : undefined) as
    | (Partial<Secret> & { errors?: unknown })
    | undefined;
  if (res.status >= 400 && typeof res.body === 'string') throw t.errorFor(res, method, path);
  if (res.status === 404 && body && 'data' in body) return body as Secret;
  if (res.status === 404 && (!body || (Array.isArray(body.errors) && body.errors.length === 0))) return null;
  if (res.status >= 400) throw t.errorFor(res, method, path);
  if (res.status === 204 || !body) return null;
  return body as Secret;
}
