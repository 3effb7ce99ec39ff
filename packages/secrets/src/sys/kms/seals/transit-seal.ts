import { readFileSync } from 'node:fs';
import { Agent, type Dispatcher } from 'undici';
import type { SealWrapper, WrappedKey } from '../../../core/seal/index.js';
import { UpstreamError } from '../../../logical/errors.js';
import { messageOf } from '../pkcs11-modules.js';

/** What a `seal "transit"` stanza configures (see `server/seal-config.ts`). */
export interface TransitSealOptions {
  address: string;
  token: string;
  keyName: string;
  mountPath: string;
  namespace?: string;
  tlsCaCert?: string;
  tlsClientCert?: string;
  tlsClientKey?: string;
  tlsServerName?: string;
  tlsSkipVerify: boolean;
}

/** `vault:v3:…`: the key version a transit ciphertext was made with. */
const CIPHERTEXT_VERSION = /^vault:v(\d+):/;

/**
 * A `seal "transit"`: another Ward (or established) server's transit engine encrypts and
 * decrypts the seal's data keys with the named key. Its ciphertext names the key version, so
 * after `transit/keys/<name>/rotate` the old entries still decrypt (down to the key's
 * `min_decryption_version`) and are re-wrapped under the latest version after the next unseal.
 * The token needs `update` on `<mount>/encrypt/<key>` and `<mount>/decrypt/<key>`.
 */
export class TransitSeal implements SealWrapper {
  readonly storedType = 'transit';
  readonly #dispatcher: Dispatcher | undefined;
  readonly #base: string;

  constructor(
    readonly type: string,
    private readonly options: TransitSealOptions,
  ) {
    this.#base = `${options.address.replace(/\/+$/, '')}/v1/${options.mountPath}`;
    const tls = {
      ...(options.tlsCaCert ? { ca: readFileSync(options.tlsCaCert) } : {}),
      ...(options.tlsClientCert ? { cert: readFileSync(options.tlsClientCert) } : {}),
      ...(options.tlsClientKey ? { key: readFileSync(options.tlsClientKey) } : {}),
      ...(options.tlsServerName ? { servername: options.tlsServerName } : {}),
    };
    const custom = Object.keys(tls).length > 0 || options.tlsSkipVerify;
    this.#dispatcher = custom
      ? new Agent({ connect: { ...tls, rejectUnauthorized: !options.tlsSkipVerify } })
      : undefined;
  }

  async wrap(plaintext: Uint8Array): Promise<WrappedKey> {
    const data = await this.#post('encrypt', { plaintext: Buffer.from(plaintext).toString('base64') });
    const ciphertext = String(data.ciphertext ?? '');
    return { keyId: this.#keyIdOf(ciphertext), ciphertext: Buffer.from(ciphertext).toString('base64') };
  }

  async unwrap(wrapped: WrappedKey): Promise<Uint8Array> {
    const ciphertext = Buffer.from(wrapped.ciphertext, 'base64').toString('utf8');
    const data = await this.#post('decrypt', { ciphertext });
    return new Uint8Array(Buffer.from(String(data.plaintext ?? ''), 'base64'));
  }

  /**
   * The latest key version, learnt from an encryption (as the established seal does): the
   * token needs no read access to the key itself.
   */
  async currentKeyId(): Promise<string> {
    return (await this.wrap(new Uint8Array(1))).keyId;
  }

  async close(): Promise<void> {
    await this.#dispatcher?.close();
  }

  #keyIdOf(ciphertext: string): string {
    const version = CIPHERTEXT_VERSION.exec(ciphertext)?.[1];
    if (!version) throw new UpstreamError('transit seal: the server answered no versioned ciphertext');
    return `${this.options.keyName}:v${version}`;
  }

  async #post(operation: 'encrypt' | 'decrypt', body: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${this.#base}/${operation}/${encodeURIComponent(this.options.keyName)}`;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Vault-Request': 'true',
      'X-Vault-Token': this.options.token,
      ...(this.options.namespace ? { 'X-Vault-Namespace': this.options.namespace } : {}),
    };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
      } as RequestInit);
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      throw new UpstreamError(`transit seal: ${url}: ${messageOf(cause ?? err)}`, { cause: err });
    }
    const text = await res.text();
    let parsed: { data?: Record<string, unknown>; errors?: string[] } = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // An answer that is not JSON (a proxy's error page) is reported by its status below.
    }
    if (!res.ok || !parsed.data) {
      const errors = parsed.errors?.join('; ') || text.slice(0, 200);
      throw new UpstreamError(`transit seal: ${operation} answered ${res.status}: ${errors}`);
    }
    return parsed.data;
  }
}
