import http from 'node:http';
import https from 'node:https';
import { UpstreamError } from '../../logical/errors.js';

/** A third party's answer larger than this is refused: an auth method must not be made to buffer gigabytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A service that does not answer in this time fails the request with 502. */
const DEFAULT_TIMEOUT_MS = 15_000;

export interface JsonRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as is (the caller sets its content type). */
  body?: string;
  /** PEM bundle to trust instead of the system's roots (an identity provider's or cluster's own CA). */
  caPem?: string;
  /** Names the service in errors. */
  service: string;
  timeoutMs?: number;
}

export interface JsonAnswer {
  status: number;
  /** The parsed body; `undefined` when it is empty or not JSON. */
  body: unknown;
}

/**
 * One request to a service an auth method relies on (an identity provider, a Kubernetes API
 * server), over node's own https so a per-mount CA can be trusted. Network failures, TLS
 * failures, timeouts and oversized answers are `UpstreamError` (502); any status is returned.
 */
export function requestJson(req: JsonRequest): Promise<JsonAnswer> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new UpstreamError(`${req.service}: invalid URL`));
  }
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:')
    return Promise.reject(new UpstreamError(`${req.service}: URL must be http(s)`));
  const transport = isHttps ? https : http;
  const fail = (detail: string, cause?: unknown) => new UpstreamError(`${req.service}: ${detail}`, { cause });
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: req.method ?? 'GET',
        headers: { Accept: 'application/json', ...req.headers },
        ...(isHttps && req.caPem ? { ca: req.caPem } : {}),
        timeout: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > MAX_BODY_BYTES) {
            res.destroy();
            reject(fail('answer too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(fail(err.message, err)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text.trim() === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', (err) => reject(fail(err.message, err)));
    outgoing.end(req.body);
  });
}
