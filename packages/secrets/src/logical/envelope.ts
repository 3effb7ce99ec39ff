import type { Secret } from '@ward/secrets-client';
import type { LogicalResponse } from './response.js';

/**
 * Whether `response` says anything an envelope would carry; if not, the HTTP layer answers 204.
 * Only warnings still make a 200.
 */
export function hasEnvelope(response: LogicalResponse): boolean {
  if (response.raw) return false;
  const hasWarnings = (response.warnings?.length ?? 0) > 0;
  return response.data != null || !!response.auth || !!response.lease || !!response.wrapInfo || hasWarnings;
}

/**
 * The standard envelope of a response, as clients receive it, and as response wrapping keeps it
 * for `sys/wrapping/unwrap` to give back unchanged.
 */
export function envelopeOf(requestId: string, response: LogicalResponse): Record<string, unknown> {
  const hasWarnings = (response.warnings?.length ?? 0) > 0;
  const envelope: Record<string, unknown> = {
    request_id: requestId,
    lease_id: response.lease?.leaseId ?? '',
    renewable: response.lease?.renewable ?? false,
    lease_duration: response.lease?.leaseDurationSeconds ?? 0,
    data: response.data ?? null,
    wrap_info: response.wrapInfo ?? null,
    warnings: hasWarnings ? (response.warnings ?? null) : null,
    auth: response.auth ?? null,
  } satisfies Secret;
  if (response.dataAtTopLevel && response.data) Object.assign(envelope, response.data, envelope);
  return envelope;
}

/**
 * `JSON.stringify(envelopeOf(requestId, response))`, without building the envelope object when
 * only `data` varies (no lease, wrapping, warnings or auth: a KV read): the constant fields are
 * one string, and only `data` is serialized.
 */
export function envelopeText(requestId: string, response: LogicalResponse): string {
  if (response.lease || response.wrapInfo || response.auth || response.dataAtTopLevel || response.warnings?.length) {
    return JSON.stringify(envelopeOf(requestId, response));
  }
  return `{"request_id":${JSON.stringify(requestId)}${PLAIN_LEASE}${dataText(response.data)}${PLAIN_TAIL}`;
}

/** Deeply frozen values handed to `serializedOnce`, and their JSON text once an envelope has needed it. */
const onceTexts = new WeakMap<object, string | undefined>();

/**
 * Marks `value` as deeply frozen, so the envelopes that carry it as their `data` serialize it once
 * and reuse the text (a KV read answers the same frozen object while the secret is unchanged).
 * Only for values nothing can change: every nested object frozen too.
 */
export function serializedOnce<T extends object>(value: T): T {
  if (!onceTexts.has(value)) onceTexts.set(value, undefined);
  return value;
}

function dataText(data: LogicalResponse['data']): string {
  if (!data) return 'null';
  if (!onceTexts.has(data)) return JSON.stringify(data);
  let text = onceTexts.get(data);
  if (text === undefined) {
    text = JSON.stringify(data);
    onceTexts.set(data, text);
  }
  return text;
}

const PLAIN_LEASE = ',"lease_id":"","renewable":false,"lease_duration":0,"data":';
const PLAIN_TAIL = ',"wrap_info":null,"warnings":null,"auth":null}';
