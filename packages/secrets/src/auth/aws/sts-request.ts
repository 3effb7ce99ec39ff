import { XMLParser } from 'fast-xml-parser';
import { request } from 'undici';
import { InvalidRequestError, PermissionDeniedError, UpstreamError } from '../../logical/errors.js';

/** The header whose signed value ties a login request to this server (`iam_server_id_header_value`). */
export const SERVER_ID_HEADER = 'x-vault-aws-iam-server-id';

/** The signed `sts:GetCallerIdentity` request a client sent, decoded from the login fields. */
export interface SignedStsRequest {
  method: string;
  url: URL;
  body: string;
  headers: Map<string, string[]>;
}

/** Who signed the request, as STS answered. */
export interface CallerIdentity {
  arn: string;
  userId: string;
  account: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

const fromBase64 = (name: string, text: string) => {
  if (!/^[A-Za-z0-9+/=_-]*$/.test(text)) throw new InvalidRequestError(`failed to base64 decode ${name}`);
  return Buffer.from(text, 'base64').toString('utf8');
};

/** Decodes and checks the login fields; throws 400 on anything but a well-formed GetCallerIdentity POST. */
export function decodeStsRequest(fields: {
  iam_http_request_method?: string;
  iam_request_url?: string;
  iam_request_body?: string;
  iam_request_headers?: unknown;
}): SignedStsRequest {
  const method = fields.iam_http_request_method ?? '';
  if (method !== 'POST') throw new InvalidRequestError('invalid iam_http_request_method; only POST is supported');
  let url: URL;
  try {
    url = new URL(fromBase64('iam_request_url', fields.iam_request_url ?? ''));
  } catch {
    throw new InvalidRequestError('error parsing iam_request_url');
  }
  if (url.pathname !== '/' || url.search !== '') throw new InvalidRequestError('invalid request path or query');
  const body = fromBase64('iam_request_body', fields.iam_request_body ?? '');
  const form = new URLSearchParams(body);
  const keys = [...form.keys()].sort();
  if (keys.join(',') !== 'Action,Version' || form.get('Action') !== 'GetCallerIdentity')
    throw new InvalidRequestError('iam_request_body must be exactly the GetCallerIdentity action');
  return { method, url, body, headers: headersOf(fields.iam_request_headers) };
}

function headersOf(raw: unknown): Map<string, string[]> {
  let parsed = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw.trim().startsWith('{') ? raw : fromBase64('iam_request_headers', raw));
    } catch {
      throw new InvalidRequestError('iam_request_headers is not base64 of a JSON object');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InvalidRequestError('missing iam_request_headers');
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(parsed)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((v) => typeof v === 'string'))
      throw new InvalidRequestError(`iam_request_headers: ${name} must be strings`);
    headers.set(name.toLowerCase(), values as string[]);
  }
  return headers;
}

/** The region of the request's SigV4 credential scope (`Credential=<key>/<date>/<region>/sts/aws4_request`). */
export function signedRegionOf(req: SignedStsRequest): string {
  return /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(req.headers.get('authorization')?.[0] ?? '')?.[1] ?? '';
}

/** The names the request's SigV4 `Authorization` header signed. */
function signedHeaders(headers: Map<string, string[]>): string[] {
  const auth = headers.get('authorization')?.[0] ?? '';
  const match = /SignedHeaders=([^,\s]+)/.exec(auth);
  if (!auth.startsWith('AWS4-HMAC-SHA256') || !match) throw new InvalidRequestError('missing or invalid Authorization');
  return (match[1] ?? '').split(';');
}

/** Headers a login request may carry unsigned (besides `allowed_sts_header_values`). */
const UNSIGNED_ALLOWED = new Set([
  'authorization',
  'content-type',
  'content-length',
  'user-agent',
  'x-amz-date',
  'x-amz-security-token',
  'host',
  SERVER_ID_HEADER,
]);

/**
 * Refuses (400) a header that is neither signed nor one a client sends unsigned by habit, so
 * nothing the signer did not cover reaches STS (the check since Vault 1.5.3).
 */
export function checkHeaders(req: SignedStsRequest, allowed: readonly string[]): void {
  const signed = new Set(signedHeaders(req.headers));
  const extra = new Set(allowed.map((h) => h.toLowerCase()));
  for (const name of req.headers.keys())
    if (!signed.has(name) && !UNSIGNED_ALLOWED.has(name) && !extra.has(name))
      throw new InvalidRequestError(`invalid request header: ${name}`);
}

/** Refuses a request not signed for this server when a server id is configured. */
export function checkServerId(req: SignedStsRequest, expected: string): void {
  const signed = signedHeaders(req.headers);
  if (!expected) return;
  const given = req.headers.get(SERVER_ID_HEADER);
  if (!given || given.length !== 1 || given[0] !== expected)
    throw new PermissionDeniedError(`expected ${expected} but got ${given?.join(',') ?? 'nothing'}`);
  if (!signed.includes(SERVER_ID_HEADER))
    throw new PermissionDeniedError(`vault header ${SERVER_ID_HEADER} not signed`);
}

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

/**
 * Forwards the signed request to STS (the configured endpoint, never the client's URL) and
 * reads who signed it. STS refusing the signature (4xx) is a 403; STS unreachable or failing, 502.
 */
export async function callerIdentityOf(req: SignedStsRequest, stsUrl: string): Promise<CallerIdentity> {
  const headers: Record<string, string> = {};
  for (const [name, values] of req.headers) if (name !== 'content-length') headers[name] = values.join(',');
  // The host the client signed for: the request goes to the configured endpoint, under that name.
  headers.host ??= req.url.host;
  let answer: { statusCode: number; text: string };
  try {
    const res = await request(stsUrl, {
      method: 'POST',
      headers,
      body: req.body,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    let text = '';
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (text.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
    }
    answer = { statusCode: res.statusCode, text };
  } catch (err) {
    throw new UpstreamError(`error making upstream request: ${(err as Error).message}`, { cause: err });
  }
  if (answer.statusCode >= 500)
    throw new UpstreamError(`received error code ${answer.statusCode} from STS: ${answer.text.slice(0, 512)}`);
  if (answer.statusCode !== 200)
    throw new PermissionDeniedError(`received error code ${answer.statusCode} from STS: ${errorText(answer.text)}`);
  const doc = parser.parse(answer.text) as {
    GetCallerIdentityResponse?: { GetCallerIdentityResult?: { Arn?: string; UserId?: string; Account?: string } };
  };
  const result = doc.GetCallerIdentityResponse?.GetCallerIdentityResult;
  if (!result?.Arn || !result.UserId || !result.Account)
    throw new UpstreamError('STS answered without Arn, UserId and Account');
  return { arn: result.Arn, userId: result.UserId, account: result.Account };
}

function errorText(xml: string): string {
  try {
    const doc = parser.parse(xml) as { ErrorResponse?: { Error?: { Code?: string; Message?: string } } };
    const e = doc.ErrorResponse?.Error;
    if (e?.Code) return `${e.Code}: ${e.Message ?? ''}`;
  } catch {
    // not XML: shown as sent
  }
  return xml.slice(0, 512);
}
