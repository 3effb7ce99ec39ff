import { InvalidRequestError } from '../logical/errors.js';
import { getJson, putJson, type Storage } from '../logical/storage.js';

/** Where the setting lives behind the barrier, as established servers keep it. */
const CONFIG_KEY = 'core/cors-config';

/**
 * Headers every CORS configuration allows; `allowed_headers` adds to these. The established list and
 * order first, then the `X-Vault-` headers it lacks, then every one of them by its `X-Service-` name,
 * which Ward reads as well: a browser is blocked from sending any header the preflight does not list.
 */
const VAULT_HEADERS = [
  'X-Vault-AWS-IAM-Server-ID',
  'X-Vault-MFA',
  'X-Vault-No-Request-Forwarding',
  'X-Vault-Wrap-Format',
  'X-Vault-Wrap-TTL',
  'X-Vault-Policy-Override',
];
export const STANDARD_ALLOWED_HEADERS: readonly string[] = [
  'Content-Type',
  'X-Requested-With',
  ...VAULT_HEADERS,
  'Authorization',
  'X-Vault-Token',
  'X-Vault-Namespace',
  'X-Vault-Request',
  ...[...VAULT_HEADERS, 'X-Vault-Token', 'X-Vault-Namespace', 'X-Vault-Request'].map((h) =>
    h.replace('X-Vault-', 'X-Service-'),
  ),
];

/** What `sys/config/cors` reads and the HTTP layer applies. */
export interface CorsConfig {
  enabled: boolean;
  /** `["*"]` allows every origin. */
  allowed_origins: string[];
  /** The standard headers, then the configured ones. */
  allowed_headers: string[];
}

const DISABLED: CorsConfig = { enabled: false, allowed_origins: [], allowed_headers: [] };

/**
 * The server's CORS setting. The HTTP layer consults it on every request, so it is kept in
 * memory: read from storage at unseal and replaced on each write. It survives sealing, so a
 * browser client can still reach `sys/seal-status` and `sys/unseal` of a sealed server.
 */
export class CorsSettings {
  #config: CorsConfig = DISABLED;

  constructor(private readonly storage: Storage) {}

  get current(): Readonly<CorsConfig> {
    return this.#config;
  }

  async load(): Promise<void> {
    this.#config = (await getJson<CorsConfig>(this.storage, CONFIG_KEY)) ?? DISABLED;
  }

  /** Allows `origins` (`["*"]` for any) with the standard headers plus `headers`. */
  async enable(origins: string[], headers: string[]): Promise<void> {
    if (origins.length === 0) throw new InvalidRequestError('at least one origin or the wildcard must be provided');
    if (origins.includes('*') && origins.length > 1) {
      throw new InvalidRequestError("to allow all origins the '*' must be the only value for allowed_origins");
    }
    const known = new Set(STANDARD_ALLOWED_HEADERS.map((h) => h.toLowerCase()));
    const extra: string[] = [];
    for (const header of headers) {
      if (known.has(header.toLowerCase())) continue;
      known.add(header.toLowerCase());
      extra.push(header);
    }
    await this.#set({
      enabled: true,
      allowed_origins: origins,
      allowed_headers: [...STANDARD_ALLOWED_HEADERS, ...extra],
    });
  }

  async disable(): Promise<void> {
    await this.#set(DISABLED);
  }

  async #set(config: CorsConfig): Promise<void> {
    await putJson(this.storage, CONFIG_KEY, config);
    this.#config = config;
  }
}
