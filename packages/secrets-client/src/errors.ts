import { CodedError } from '@ward/base';

/** Stable codes callers match on (never on the message text). */
export type ClientErrorCode = 'api_error' | 'connection_failed';

/** Base of every error this package throws. */
export abstract class ClientError extends CodedError<ClientErrorCode> {}

/** The server answered with a status ≥ 400; `errors` is the body's `errors` list (possibly empty). */
export class ApiError extends ClientError {
  readonly code = 'api_error';
  constructor(
    readonly status: number,
    readonly errors: string[],
    readonly method: string,
    readonly url: string,
  ) {
    const list = errors.length > 0 ? errors.map((e) => `* ${e.trim()}`).join('\n') : '(no error text)';
    super(`Error making API request.\n\nURL: ${method} ${url}\nCode: ${status}. Errors:\n\n${list}`);
  }
}

/** No HTTP answer at all: refused connection, DNS failure, TLS verification failure, … */
export class ConnectionError extends ClientError {
  readonly code = 'connection_failed';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${url}: ${describeCause(cause)}`, { cause });
    this.causeCode = innermostCode(cause);
  }
  /** The code of the innermost cause (`UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `ECONNREFUSED`), for hints. */
  readonly causeCode: string | undefined;
}

function innermostCode(err: unknown): string | undefined {
  let e: unknown = err;
  while (e instanceof Error && e.message === 'fetch failed' && e.cause !== undefined) e = e.cause;
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** undici reports "fetch failed" and keeps the useful text (e.g. a certificate error) in `cause`. */
function describeCause(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.message === 'fetch failed' && e.cause !== undefined) e = e.cause;
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}
