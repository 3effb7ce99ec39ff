import { type Random, randomBase62, randomUuid } from '@ward/base';
import type { GenerateRootStatus } from '@ward/secrets-client';
import { KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { KeyShareSet } from './key-share-set.js';
import type { KeyShareTarget } from './key-share-target.js';
import { checkNonce } from './rekey-operation.js';
import { parseUnsealKey } from './unseal-progress.js';

/**
 * Length of a root token (`hvs.` + 24 base62), hence of the one-time pad that encodes it:
 * the established `otp_length` for such tokens.
 */
export const ROOT_TOKEN_OTP_LENGTH = 28;

/** `sys/generate-root/attempt` status: the wire type of `@ward/secrets-client`. */
export type RootGenerationStatus = GenerateRootStatus;

interface Attempt {
  nonce: string;
  otp: string;
  collected: KeyShareSet;
}

/**
 * Generation of a new root token from a threshold of unseal shares, as established: an
 * operator starts an attempt (with a one-time pad, or gets one generated), share holders
 * submit their shares against its nonce, and the last one gets the new token XORed with the
 * pad and base64-encoded (no padding), which only the holder of the pad can decode.
 */
export class RootGeneration {
  readonly #seal: KeyShareTarget;
  readonly #random: Random;
  readonly #createRootToken: () => Promise<string>;
  readonly #lock = new KeyedMutex();
  #attempt: Attempt | undefined;

  constructor(deps: { seal: KeyShareTarget; random: Random; createRootToken: () => Promise<string> }) {
    this.#seal = deps.seal;
    this.#random = deps.random;
    this.#createRootToken = deps.createRootToken;
  }

  async status(): Promise<RootGenerationStatus> {
    const a = this.#attempt;
    return {
      started: a !== undefined,
      nonce: a?.nonce ?? '',
      progress: a?.collected.size ?? 0,
      required: (await this.#seal.config())?.secret_threshold ?? 0,
      complete: false,
      encoded_token: '',
      encoded_root_token: '',
      pgp_fingerprint: '',
      otp: '',
      otp_length: ROOT_TOKEN_OTP_LENGTH,
    };
  }

  /** Starts an attempt; without an `otp` one is generated and shown in this answer only. */
  async start(options: { otp?: string; pgpKey?: string }): Promise<RootGenerationStatus> {
    if (options.pgpKey) throw new InvalidRequestError('PGP-encrypted root tokens are not supported by this server');
    if (this.#attempt) throw new InvalidRequestError('root generation already in progress');
    if (options.otp !== undefined && options.otp.length !== ROOT_TOKEN_OTP_LENGTH) {
      throw new InvalidRequestError(`OTP string is wrong length: expected ${ROOT_TOKEN_OTP_LENGTH} characters`);
    }
    const otp = options.otp ?? randomBase62(this.#random, ROOT_TOKEN_OTP_LENGTH);
    this.#attempt = { nonce: randomUuid(this.#random), otp, collected: new KeyShareSet() };
    return { ...(await this.status()), otp: options.otp === undefined ? otp : '' };
  }

  cancel(): void {
    this.#attempt?.collected.clear();
    this.#attempt = undefined;
  }

  /** Submits one share; the one completing the threshold gets the encoded new root token. */
  async update(keyText: string, nonce: string): Promise<RootGenerationStatus> {
    return this.#lock.run('generate-root', async () => {
      const a = this.#attempt;
      if (!a) throw new InvalidRequestError('no root generation in progress');
      checkNonce(a.nonce, nonce);
      if (!a.collected.add(parseUnsealKey(keyText))) {
        throw new InvalidRequestError('given key has already been provided during this generation operation');
      }
      const status = await this.status();
      if (a.collected.size < status.required) return status;
      // Recovering the root key proves the shares are the seal's.
      await this.#seal.withRootKey(a.collected.take(), async () => undefined);
      const encoded = encodeRootToken(await this.#createRootToken(), a.otp);
      this.#attempt = undefined;
      return {
        ...status,
        started: true,
        progress: status.required,
        complete: true,
        encoded_token: encoded,
        encoded_root_token: encoded,
      };
    });
  }
}

/** The established encoding: the token's bytes XOR the pad's, in unpadded standard base64. */
export function encodeRootToken(token: string, otp: string): string {
  return xor(Buffer.from(token), Buffer.from(otp)).toString('base64').replace(/=+$/, '');
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}
