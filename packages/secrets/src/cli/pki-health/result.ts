import { CodedError } from '@ward/base';
import { ApiError, type Client } from '@ward/secrets-client';

/** A finding's severity, ordered as established: the exit status is the highest one past the cut-off. */
export const STATUS = {
  not_applicable: 0,
  ok: 1,
  informational: 2,
  warning: 3,
  critical: 4,
  invalid_version: 5,
  insufficient_permissions: 6,
} as const;
export type StatusName = keyof typeof STATUS;

/** One finding, in the established JSON shape. */
export interface Finding {
  status_code: number;
  status: StatusName;
  endpoint?: string;
  message?: string;
}

export function finding(status: StatusName, endpoint: string, message: string): Finding {
  return { status_code: STATUS[status], status, endpoint, message };
}

/** A read or list the token may not make: the checks report it instead of failing the run. */
export class DeniedError extends CodedError<'permission_denied'> {
  readonly code = 'permission_denied';
  constructor(readonly path: string) {
    super(`permission denied: ${path}`);
  }
}

/** Reads and lists of one mount, each made once however many checks need it; a 403 is a `DeniedError`. */
export class MountReader {
  readonly #cache = new Map<string, Promise<Record<string, unknown> | null>>();
  constructor(
    private readonly client: Client,
    readonly mount: string,
  ) {}

  read(path: string): Promise<Record<string, unknown> | null> {
    return this.#fetch(
      `read ${path}`,
      path,
      async () => (await this.client.read(`${this.mount}/${path}`))?.data ?? null,
    );
  }

  async list(path: string): Promise<string[]> {
    const data = await this.#fetch(
      `list ${path}`,
      path,
      async () => (await this.client.list(`${this.mount}/${path}`))?.data ?? null,
    );
    return Array.isArray(data?.keys) ? (data.keys as unknown[]).map(String) : [];
  }

  #fetch(key: string, path: string, load: () => Promise<Record<string, unknown> | null>) {
    let got = this.#cache.get(key);
    if (!got) {
      got = load().catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 403) throw new DeniedError(`/${this.mount}/${path}`);
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      });
      this.#cache.set(key, got);
    }
    return got;
  }
}
