import type { Random } from '@ward/base';
import pkcs11js from 'pkcs11js';
import type { SealWrapper, WrappedKey } from '../../../core/seal/index.js';
import { UpstreamError } from '../../../logical/errors.js';
import { findObject, type KeySelector } from '../pkcs11-keys.js';
import { findSlot, messageOf, type Pkcs11Modules } from '../pkcs11-modules.js';
import { SessionPool } from '../session-pool.js';

/** What a `seal "pkcs11"` stanza configures (see `server/seal-config.ts`). */
export interface Pkcs11SealOptions {
  lib: string;
  slot?: bigint;
  tokenLabel?: string;
  pin: string;
  keyLabel?: string;
  keyId?: Buffer;
  /** `CKM_AES_GCM` or `CKM_RSA_PKCS_OAEP`. */
  mechanism: number;
  generateKey: boolean;
  /** The OAEP hash and MGF1 hash of `CKM_RSA_PKCS_OAEP` (SoftHSM2 takes only `sha1`). */
  rsaOaepHash: 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
}

const OAEP = new Map([
  ['sha1', { hashAlg: pkcs11js.CKM_SHA_1, mgf: pkcs11js.CKG_MGF1_SHA1 }],
  ['sha224', { hashAlg: pkcs11js.CKM_SHA224, mgf: pkcs11js.CKG_MGF1_SHA224 }],
  ['sha256', { hashAlg: pkcs11js.CKM_SHA256, mgf: pkcs11js.CKG_MGF1_SHA256 }],
  ['sha384', { hashAlg: pkcs11js.CKM_SHA384, mgf: pkcs11js.CKG_MGF1_SHA384 }],
  ['sha512', { hashAlg: pkcs11js.CKM_SHA512, mgf: pkcs11js.CKG_MGF1_SHA512 }],
]);

const IV_BYTES = 12;
const TAG_BITS = 128;
const AES_KEY_BYTES = 32;
/** OAEP's encoding parameter comes from the (empty) source data; pkcs11js has no constant for it. */
const CKZ_DATA_SPECIFIED = 1;

/**
 * A `seal "pkcs11"`: the seal's data keys are encrypted in the HSM with an AES-256 key
 * (`CKM_AES_GCM`, the default; generated under `key_label` with `generate_key`) or with the
 * public half of an RSA key pair (`CKM_RSA_PKCS_OAEP`, `rsa_oaep_hash`), which never leave it. Each
 * wrapped value names the key's label and id: a stanza pointed at a new key (a rotation) still
 * unwraps what the old key wrapped while the old key stays in the token.
 */
export class Pkcs11Seal implements SealWrapper {
  readonly storedType = 'pkcs11';
  readonly #module: pkcs11js.PKCS11;
  readonly #pool: SessionPool<Buffer>;

  constructor(
    readonly type: string,
    private readonly modules: Pkcs11Modules,
    private readonly options: Pkcs11SealOptions,
    private readonly random: Random,
  ) {
    this.#module = modules.open(options.lib);
    this.#pool = new SessionPool(
      1,
      () => this.#openSession(),
      (s) => this.#module.C_CloseSession(s),
    );
  }

  async currentKeyId(): Promise<string> {
    return keyIdOf({ label: this.options.keyLabel, id: this.options.keyId });
  }

  async wrap(plaintext: Uint8Array): Promise<WrappedKey> {
    const selector = { label: this.options.keyLabel, id: this.options.keyId };
    return this.#pool.use(async (session) => {
      const key = await this.#findOrGenerate(session, selector);
      const iv = this.random.bytes(IV_BYTES);
      const mechanism = this.#mechanism(Buffer.from(iv));
      const ciphertext = await this.#call('encrypt', async () => {
        this.#module.C_EncryptInit(session, mechanism, key);
        const input = Buffer.from(plaintext);
        const out = await this.#module.C_EncryptAsync(session, input, Buffer.alloc(input.length + 1024));
        input.fill(0);
        return Buffer.from(out);
      });
      const params: Record<string, string> = {
        mechanism: `0x${this.options.mechanism.toString(16).padStart(4, '0')}`,
        ...(this.#isAes() ? { iv: Buffer.from(iv).toString('base64') } : { oaep_hash: this.options.rsaOaepHash }),
        ...(selector.label !== undefined ? { key_label: selector.label } : {}),
        ...(selector.id !== undefined ? { key_id: selector.id.toString('hex') } : {}),
      };
      return { keyId: keyIdOf(selector), ciphertext: ciphertext.toString('base64'), params };
    });
  }

  async unwrap(wrapped: WrappedKey): Promise<Uint8Array> {
    const p = wrapped.params ?? {};
    const selector: KeySelector = {
      label: p.key_label,
      id: p.key_id === undefined ? undefined : Buffer.from(p.key_id, 'hex'),
    };
    const mechanismNumber = Number(p.mechanism ?? this.options.mechanism);
    const oaepHash = p.oaep_hash ?? this.options.rsaOaepHash;
    return this.#pool.use(async (session) => {
      const key = this.#find(session, selector, mechanismNumber, pkcs11js.CKO_PRIVATE_KEY);
      if (!key) throw new UpstreamError(`PKCS#11: the seal key ${keyIdOf(selector)} is not in the token`);
      const mechanism = this.#mechanismFor(mechanismNumber, Buffer.from(p.iv ?? '', 'base64'), oaepHash);
      const ciphertext = Buffer.from(wrapped.ciphertext, 'base64');
      return this.#call('decrypt', async () => {
        this.#module.C_DecryptInit(session, mechanism, key);
        const out = await this.#module.C_DecryptAsync(session, ciphertext, Buffer.alloc(ciphertext.length + 1024));
        // The worker thread reads `ciphertext` through a raw pointer: it must stay reachable until here.
        ciphertext.fill(0);
        return new Uint8Array(out);
      });
    });
  }

  async close(): Promise<void> {
    this.#pool.drain();
  }

  #isAes(mechanism = this.options.mechanism): boolean {
    return mechanism === pkcs11js.CKM_AES_GCM;
  }

  #mechanism(iv: Buffer): pkcs11js.Mechanism {
    return this.#mechanismFor(this.options.mechanism, iv, this.options.rsaOaepHash);
  }

  #mechanismFor(mechanism: number, iv: Buffer, oaepHash: string): pkcs11js.Mechanism {
    if (this.#isAes(mechanism)) {
      // SoftHSM2 and current HSMs take the PKCS#11 2.40 layout (with ulIvBits).
      const parameter: pkcs11js.AesGCM = {
        type: pkcs11js.CK_PARAMS_AES_GCM_v240,
        iv,
        ivBits: iv.length * 8,
        tagBits: TAG_BITS,
      };
      return { mechanism, parameter };
    }
    const hashes = OAEP.get(oaepHash);
    if (!hashes) throw new UpstreamError(`PKCS#11: unknown OAEP hash ${oaepHash}`);
    const parameter: pkcs11js.RsaOAEP = { type: pkcs11js.CK_PARAMS_RSA_OAEP, ...hashes, source: CKZ_DATA_SPECIFIED };
    return { mechanism, parameter };
  }

  /** The AES key, or an RSA key pair's public half for encryption (its private half to decrypt). */
  #find(session: Buffer, selector: KeySelector, mechanism: number, rsaClass: number): Buffer | undefined {
    const objectClass = this.#isAes(mechanism) ? pkcs11js.CKO_SECRET_KEY : rsaClass;
    return findObject(this.#module, session, objectClass, selector);
  }

  async #findOrGenerate(session: Buffer, selector: KeySelector): Promise<Buffer> {
    const found = this.#find(session, selector, this.options.mechanism, pkcs11js.CKO_PUBLIC_KEY);
    if (found) return found;
    if (!this.options.generateKey || !this.#isAes() || selector.label === undefined) {
      throw new UpstreamError(
        `PKCS#11: no seal key ${keyIdOf(selector)} in the token (generate_key generates AES keys only)`,
      );
    }
    await this.#call('key generation', () =>
      this.#module.C_GenerateKeyAsync(session, { mechanism: pkcs11js.CKM_AES_KEY_GEN }, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_SECRET_KEY },
        { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_AES },
        { type: pkcs11js.CKA_VALUE_LEN, value: AES_KEY_BYTES },
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        { type: pkcs11js.CKA_ENCRYPT, value: true },
        { type: pkcs11js.CKA_DECRYPT, value: true },
        { type: pkcs11js.CKA_LABEL, value: selector.label as string },
        ...(selector.id ? [{ type: pkcs11js.CKA_ID, value: selector.id }] : []),
      ]),
    );
    const generated = this.#find(session, selector, this.options.mechanism, pkcs11js.CKO_PUBLIC_KEY);
    if (!generated) throw new UpstreamError(`PKCS#11: the generated seal key ${keyIdOf(selector)} is not found`);
    return generated;
  }

  #openSession(): Buffer {
    const m = this.#module;
    try {
      const slot = findSlot(m, { slot: this.options.slot, tokenLabel: this.options.tokenLabel });
      // Key generation writes a token object, which needs a read-write session.
      const session = m.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
      try {
        this.modules.login(this.options.lib, slot, session, this.options.pin);
      } catch (err) {
        m.C_CloseSession(session);
        throw err;
      }
      return session;
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError(`PKCS#11 login failed: ${messageOf(err)}`, { cause: err });
    }
  }

  async #call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError(`PKCS#11 ${what} failed: ${messageOf(err)}`, { cause: err });
    }
  }
}

function keyIdOf(selector: KeySelector): string {
  const parts = [];
  if (selector.label !== undefined) parts.push(`label:${selector.label}`);
  if (selector.id !== undefined) parts.push(`id:${selector.id.toString('hex')}`);
  return parts.join(',');
}
