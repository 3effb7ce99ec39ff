/** The UI's way to the server: fetch to /v1, the session (sessionStorage, expiry, renewal), logins, capabilities, status. @module */
import { CodedError } from '@ward/base/coded-error';
import type { Secret } from '@ward/secrets-client';

/** An answer of the server other than 2xx: its status and the `errors` it gave, shown in place. */
export class ApiError extends CodedError<'api_error'> {
  readonly code = 'api_error';
  constructor(
    readonly status: number,
    readonly errors: readonly string[],
    /** The answer's body as parsed (an OAuth error object, say), `undefined` when empty. */
    readonly body?: unknown,
  ) {
    super(errors.length > 0 ? errors.join('; ') : `the server answered ${status}`);
    // Kept by hand: the bundle's minifier renames the class, and with it `new.target.name`.
    this.name = 'ApiError';
  }
}

export type Method = 'GET' | 'LIST' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string>;
  /** Default: the session's token; `null`: none (unauthenticated endpoints, logins). */
  token?: string | null;
  /** Default: the session's namespace. */
  namespace?: string;
  /** More request headers (`X-Vault-Wrap-TTL` for the wrap tool). */
  headers?: Record<string, string>;
}

/** What the API needs to know of the session; the session calls back after each authenticated call. */
export interface ApiSession {
  token(): string | undefined;
  namespace(): string;
  /** The server refused the token (403 on a call made with it): it may have expired or been revoked. */
  onRefused(): void;
  /** A call went through with the token: the session renews it when it is due. */
  onUsed(): void;
}

/**
 * The UI's only way to the server: `fetch` to this origin's `/v1/`. No module state: one is made in
 * main.tsx and handed down through the app context.
 */
export class Api {
  constructor(readonly session: ApiSession) {}

  async request<D = Record<string, unknown>>(
    method: Method,
    path: string,
    options: RequestOptions = {},
  ): Promise<Secret<D> | undefined> {
    const query = new URLSearchParams(options.query);
    if (method === 'LIST') query.set('list', 'true');
    const url = `/v1/${path.split('/').map(encodeURIComponent).join('/')}${query.size > 0 ? `?${query}` : ''}`;
    const headers: Record<string, string> = { ...options.headers, 'X-Vault-Request': 'true' };
    const token = options.token === undefined ? this.session.token() : (options.token ?? undefined);
    if (token) headers['X-Vault-Token'] = token;
    const namespace = options.namespace ?? this.session.namespace();
    if (namespace) headers['X-Vault-Namespace'] = namespace;
    if (options.body !== undefined) {
      headers['Content-Type'] = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    }
    const res = await fetch(url, {
      method: method === 'LIST' ? 'GET' : method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'omit',
      cache: 'no-store',
    });
    const text = await res.text();
    const body = text ? parseJson(text) : undefined;
    if (!res.ok) {
      const errors = isErrorBody(body) ? body.errors : [];
      if (res.status === 403 && token && options.token === undefined) this.session.onRefused();
      throw new ApiError(res.status, errors, body);
    }
    if (token && options.token === undefined) this.session.onUsed();
    return body as Secret<D> | undefined;
  }

  /** The `data` of a read; a 404 is `undefined`. */
  async read<D = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<D | undefined> {
    try {
      return (await this.request<D>('GET', path, options))?.data ?? undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** The `keys` of a list; nothing there (404) is `[]`. */
  async list(path: string, options?: RequestOptions): Promise<string[]> {
    try {
      return (await this.request<{ keys?: string[] }>('LIST', path, options))?.data?.keys ?? [];
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return [];
      throw err;
    }
  }

  write<D = Record<string, unknown>>(path: string, body: unknown, options?: RequestOptions) {
    return this.request<D>('PUT', path, { ...options, body });
  }

  delete(path: string, options?: RequestOptions) {
    return this.request('DELETE', path, options);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): body is { errors: string[] } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { errors?: unknown }).errors);
}
