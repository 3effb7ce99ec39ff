import { constants, createCipheriv, publicEncrypt, randomBytes } from 'node:crypto';
import { testBackend } from '../../framework/testing.js';
import type { LogicalResponse } from '../../logical/response.js';
import { createTransitBackend } from './backend.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
type Json = Record<string, any>;

/** A transit backend over memory, and `ok`, which answers a write's `data` (any non-2xx status fails). */
export async function transitForTest() {
  const t = await testBackend(createTransitBackend);
  const dataOf = (r: LogicalResponse | undefined, what: string): Json => {
    if (r?.raw || (r?.status && r.status >= 300)) throw new Error(`${what}: ${JSON.stringify(r)}`);
    return (r?.data ?? {}) as Json;
  };
  return {
    ...t,
    ok: async (path: string, body?: Record<string, unknown>) => dataOf(await t.write(path, body), path),
    get: async (path: string) => dataOf(await t.read(path), path),
  };
}

export const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/**
 * Key material wrapped for `keys/:name/import` as established: RSA-OAEP (`hash`) of an ephemeral
 * AES-256 key under the mount's `wrapping_key`, then the material AES-KWP-wrapped under it.
 */
export function wrapForImport(wrappingPem: string, material: Buffer, hash = 'sha256'): string {
  const ephemeral = randomBytes(32);
  const rsa = publicEncrypt({ key: wrappingPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, ephemeral);
  const kwp = createCipheriv('id-aes256-wrap-pad', ephemeral, Buffer.from('A65959A6', 'hex'));
  return Buffer.concat([rsa, kwp.update(material), kwp.final()]).toString('base64');
}
