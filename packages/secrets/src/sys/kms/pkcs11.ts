import type { KeyObject } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { ecdsaRawToDer, type HashAlgorithm, type ManagedKeyBackend, type SignOptions } from './managed-key-backend.js';
import { findObject, generateKeyPair, type KeySelector, readPublicKey } from './pkcs11-keys.js';
import { findSlot, messageOf, type Pkcs11Modules } from './pkcs11-modules.js';
import { SessionPool } from './session-pool.js';

export interface Pkcs11KeySettings {
  /** Path of the library, from the `kms_library` stanza the key names. */
  libraryPath: string;
  slot?: bigint;
  tokenLabel?: string;
  pin: string;
  key: KeySelector;
  /** `mechanism`: decides the key type generated (RSA for 0x1/0x9/0xD, EC for 0x1041). */
  mechanism: number;
  keyBits: number;
  curve: string;
  allowGenerateKey: boolean;
  forceRwSession: boolean;
  maxParallel: number;
}

/** The PKCS#1 v1.5 DigestInfo prefix of each hash (CKM_RSA_PKCS signs DigestInfo ‖ digest). */
const DIGEST_INFO = new Map<HashAlgorithm, string>([
  ['sha1', '3021300906052b0e03021a05000414'],
  ['sha2-224', '302d300d06096086480165030402040500041c'],
  ['sha2-256', '3031300d060960864801650304020105000420'],
  ['sha2-384', '3041300d060960864801650304020205000430'],
  ['sha2-512', '3051300d060960864801650304020305000440'],
  ['sha3-224', '302d300d06096086480165030402070500041c'],
  ['sha3-256', '3031300d060960864801650304020805000420'],
  ['sha3-384', '3041300d060960864801650304020905000430'],
  ['sha3-512', '3051300d060960864801650304020a05000440'],
]);

/** PSS parameters per hash; PKCS#11 2.40 has no SHA-3 mechanisms, so PSS with SHA-3 is refused. */
const PSS_PARAMS = new Map<HashAlgorithm, { hashAlg: number; mgf: number; saltLen: number }>([
  ['sha1', { hashAlg: pkcs11js.CKM_SHA_1, mgf: pkcs11js.CKG_MGF1_SHA1, saltLen: 20 }],
  ['sha2-224', { hashAlg: pkcs11js.CKM_SHA224, mgf: pkcs11js.CKG_MGF1_SHA224, saltLen: 28 }],
  ['sha2-256', { hashAlg: pkcs11js.CKM_SHA256, mgf: pkcs11js.CKG_MGF1_SHA256, saltLen: 32 }],
  ['sha2-384', { hashAlg: pkcs11js.CKM_SHA384, mgf: pkcs11js.CKG_MGF1_SHA384, saltLen: 48 }],
  ['sha2-512', { hashAlg: pkcs11js.CKM_SHA512, mgf: pkcs11js.CKG_MGF1_SHA512, saltLen: 64 }],
]);

export const CKM_ECDSA = 0x1041;

interface KeyPair {
  privateKey: Buffer;
  publicKey: KeyObject;
}

/**
 * A key in a PKCS#11 token. Sessions are pooled up to `max_parallel`, each logged in with the
 * PIN (see `Pkcs11Modules.login` for why a second login is checked by hand).
 * Signing runs on libuv's thread pool (`C_SignAsync`), so sessions really work in parallel.
 */
export class Pkcs11Backend implements ManagedKeyBackend {
  readonly #module: pkcs11js.PKCS11;
  readonly #pool: SessionPool<Buffer>;
  #key: Promise<KeyPair> | undefined;

  constructor(
    private readonly modules: Pkcs11Modules,
    private readonly settings: Pkcs11KeySettings,
  ) {
    this.#module = modules.open(settings.libraryPath);
    this.#pool = new SessionPool(
      settings.maxParallel,
      () => this.#openSession(),
      (s) => this.#closeSession(s),
    );
  }

  async sign(digest: Buffer, options: SignOptions): Promise<Buffer> {
    const key = await this.#keyPair();
    const isRsa = key.publicKey.asymmetricKeyType === 'rsa';
    const mechanism = isRsa ? rsaMechanism(digest, options) : ecMechanism(options);
    return this.#pool.use(async (session) => {
      try {
        this.#module.C_SignInit(session, mechanism.mechanism, key.privateKey);
        // pkcs11js's worker thread reads `input` through a raw pointer and holds no reference to
        // it: it must stay reachable until the signature is back, hence the use after the await.
        const input = mechanism.input(digest);
        const signature = await this.#module.C_SignAsync(session, input, Buffer.alloc(1024));
        input.fill(0);
        return isRsa ? Buffer.from(signature) : ecdsaRawToDer(signature);
      } catch (err) {
        throw new UpstreamError(`PKCS#11 sign failed: ${messageOf(err)}`, { cause: err });
      }
    });
  }

  async publicKey(): Promise<KeyObject> {
    return (await this.#keyPair()).publicKey;
  }

  async close(): Promise<void> {
    this.#pool.drain();
  }

  /** Found once and kept: token objects keep their handles for as long as the library is loaded. */
  #keyPair(): Promise<KeyPair> {
    this.#key ??= this.#pool.use((session) => this.#findOrGenerate(session));
    // A failure (wrong PIN, HSM down) must not stick: the next call tries again.
    this.#key.catch(() => {
      this.#key = undefined;
    });
    return this.#key;
  }

  async #findOrGenerate(session: Buffer): Promise<KeyPair> {
    const m = this.#module;
    const { key } = this.settings;
    try {
      let privateKey = findObject(m, session, pkcs11js.CKO_PRIVATE_KEY, key);
      if (!privateKey) {
        if (!this.settings.allowGenerateKey || key.label === undefined)
          throw new UpstreamError(`PKCS#11: no private key found for ${describeKey(key)}`);
        await generateKeyPair(m, session, this.#generationSpec(key.label));
        privateKey = findObject(m, session, pkcs11js.CKO_PRIVATE_KEY, key);
      }
      const publicHandle = findObject(m, session, pkcs11js.CKO_PUBLIC_KEY, key);
      if (!privateKey || !publicHandle) throw new UpstreamError(`PKCS#11: no key pair found for ${describeKey(key)}`);
      return { privateKey, publicKey: readPublicKey(m, session, publicHandle) };
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError(`PKCS#11: ${messageOf(err)}`, { cause: err });
    }
  }

  #generationSpec(label: string) {
    const { mechanism, keyBits, curve, key } = this.settings;
    return mechanism === CKM_ECDSA ? { label, id: key.id, curve } : { label, id: key.id, keyBits };
  }

  #openSession(): Buffer {
    const m = this.#module;
    try {
      const slot = findSlot(m, { slot: this.settings.slot, tokenLabel: this.settings.tokenLabel });
      // Key generation writes token objects, which needs a read-write session.
      const readWrite = this.settings.forceRwSession || this.settings.allowGenerateKey;
      const session = m.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | (readWrite ? pkcs11js.CKF_RW_SESSION : 0));
      try {
        this.modules.login(this.settings.libraryPath, slot, session, this.settings.pin);
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

  #closeSession(session: Buffer): void {
    try {
      this.#module.C_CloseSession(session);
    } catch {
      // The token may be gone already; nothing is left to release.
    }
  }
}

function rsaMechanism(digest: Buffer, options: SignOptions) {
  if (!options.usePss) {
    const prefix = Buffer.from(DIGEST_INFO.get(options.hash) ?? '', 'hex');
    return { mechanism: { mechanism: pkcs11js.CKM_RSA_PKCS }, input: () => Buffer.concat([prefix, digest]) };
  }
  const params = PSS_PARAMS.get(options.hash);
  if (!params) throw new InvalidRequestError(`hash_algorithm ${options.hash} is not supported with use_pss on pkcs11`);
  return {
    mechanism: {
      mechanism: pkcs11js.CKM_RSA_PKCS_PSS,
      parameter: { type: pkcs11js.CK_PARAMS_RSA_PSS, ...params },
    },
    input: () => digest,
  };
}

function ecMechanism(options: SignOptions) {
  if (options.usePss) throw new InvalidRequestError('use_pss is only valid for RSA keys');
  return { mechanism: { mechanism: CKM_ECDSA }, input: (digest: Buffer) => digest };
}

function describeKey(key: KeySelector): string {
  const parts = [];
  if (key.label !== undefined) parts.push(`label "${key.label}"`);
  if (key.id !== undefined) parts.push(`id ${key.id.toString('hex')}`);
  return parts.join(' and ');
}
