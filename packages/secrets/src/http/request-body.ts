import type { IncomingMessage } from 'node:http';
import { JsonBody, type JsonLimits } from './json-body.js';
import { bodyObject, parseBody } from './logical-request.js';
import { readBody, streamBody } from './read-body.js';

/** What one listener allows a request body. */
export interface BodyLimits {
  /** Bytes; negative = unlimited. */
  maxRequestSize: number;
  json: JsonLimits;
}

/**
 * The data of a request body. JSON (the usual case) is parsed at once when small, else while it
 * arrives, so neither a large text nor a long synchronous parse ever sits in the server (see
 * `JsonBody`); a form-typed body is read whole (bounded by `max_request_size`) and parsed as before.
 */
export async function readRequestData(req: IncomingMessage, limits: BodyLimits): Promise<Record<string, unknown>> {
  const contentType = req.headers['content-type'];
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return parseBody(await readBody(req, limits.maxRequestSize), contentType, limits.json);
  }
  const body = new JsonBody(limits.json);
  await streamBody(req, limits.maxRequestSize, (chunk) => body.write(chunk));
  return bodyObject(body.end());
}
