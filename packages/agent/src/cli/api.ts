import { CodedError } from '@ward/base';

/** Where CLI commands send their requests, from `-address`/`-token` or the environment. */
export interface ApiTarget {
  address: string;
  token: string | undefined;
}

const DEFAULT_ADDRESS = 'http://127.0.0.1:4646';

/**
 * `-address`, then `WARD_AGENT_ADDR`, then the established `NOMAD_ADDR`; the token the
 * same way (`-token`, `WARD_AGENT_TOKEN`, `NOMAD_TOKEN`).
 */
export function apiTarget(flags: { address?: string; token?: string }, env: NodeJS.ProcessEnv): ApiTarget {
  const address = flags.address || env.WARD_AGENT_ADDR || env.NOMAD_ADDR || DEFAULT_ADDRESS;
  const token = flags.token || env.WARD_AGENT_TOKEN || env.NOMAD_TOKEN || undefined;
  return { address: address.replace(/\/+$/, ''), token };
}

/** The agent answered with an error status, or could not be reached: the CLI exits 1. */
export class ApiError extends CodedError<'api_error'> {
  readonly code = 'api_error';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** A minimal client of the agent's HTTP API for the CLI. */
export class AgentApi {
  constructor(readonly target: ApiTarget) {}

  /** Sends a request; a non-2xx answer becomes `ApiError` with the established wording. */
  async request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers = new Headers();
    if (this.target.token) headers.set('X-Nomad-Token', this.target.token);
    let res: Response;
    try {
      res = await fetch(`${this.target.address}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new ApiError(`${method} ${this.target.address}${path}: ${cause}`, undefined);
    }
    if (res.status < 200 || res.status > 299) {
      throw new ApiError(`Unexpected response code: ${res.status} (${(await res.text()).trim()})`, res.status);
    }
    return res;
  }

  async get<T>(path: string): Promise<T> {
    return (await (await this.request('GET', path)).json()) as T;
  }

  /** PUT with a JSON body; resolves to the JSON answer, or undefined for an empty one. */
  async put<T>(path: string, body: unknown): Promise<T | undefined> {
    const text = await (await this.request('PUT', path, body)).text();
    return text ? (JSON.parse(text) as T) : undefined;
  }
}
