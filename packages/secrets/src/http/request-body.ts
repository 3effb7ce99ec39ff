import type { IncomingMessage } from 'node:http';
import { JsonBodyParser, type JsonLimits, writeInSlices } from './json-body.js';
import { bodyObject, parseBody } from './logical-request.js';
import { readBody, streamBody } from './read-body.js';

/** What one listener allows a request body. */
export interface BodyLimits {
  /** Bytes; negative = unlimited. */
  maxRequestSize: number;
  json: JsonLimits;
}

/**
 * The data of a request body. JSON (the usual case) is parsed while it arrives, so neither the
 * whole text nor a long synchronous parse ever sits in the server; a form-typed body is read
 * whole (bounded by `max_request_size`) and parsed as before.
 */
export async function readRequestData(req: IncomingMessage, limits: BodyLimits): Promise<Record<string, unknown>> {
  const contentType = req.headers['content-type'];
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return parseBody(await readBody(req, limits.maxRequestSize), contentType, limits.json);
  }
  const parser = new JsonBodyParser(limits.json);
  await streamBody(req, limits.maxRequestSize, (chunk) => writeInSlices(parser, chunk));
  return bodyObject(parser.end());
}
