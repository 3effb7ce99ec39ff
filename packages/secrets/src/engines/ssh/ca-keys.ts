import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import sshpk from 'sshpk';
import { InvalidRequestError } from '../../logical/errors.js';
import type { CaKeys } from './stores.js';

/** Key types `config/ca` and `issue` generate, by their established names. */
export type KeyKind = 'rsa' | 'ec' | 'ed25519';

/** Normalises the established spellings (`ssh-rsa`, `rsa`, `ecdsa-sha2-nistp256`, `ec`, `ssh-ed25519`, `ed25519`). */
export function keyKind(name: string): KeyKind {
  const n = name.toLowerCase();
  if (n === 'ssh-rsa' || n === 'rsa') return 'rsa';
  if (n === 'ec' || n.startsWith('ecdsa-sha2-')) return 'ec';
  if (n === 'ssh-ed25519' || n === 'ed25519') return 'ed25519';
  throw new InvalidRequestError(`unknown key_type "${name}"`);
}

const generate = promisify(generateKeyPair);

/**
 * A new key pair (off the event loop: RSA takes seconds): RSA of `bits` (default 4096), EC
 * P-256/384/521 (default 256), or Ed25519.
 */
export async function generateKeys(kind: KeyKind, bits: number): Promise<{ publicKey: string; privateKey: string }> {
  const pair =
    kind === 'rsa'
      ? await generate('rsa', { modulusLength: checkedBits(bits || 4096, [2048, 3072, 4096, 8192]) })
      : kind === 'ec'
        ? await generate('ec', { namedCurve: curveOf(bits || 256) })
        : await generate('ed25519');
  const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = sshpk.parsePrivateKey(pem, 'pem');
  return { publicKey: key.toPublic().toString('ssh'), privateKey: key.toString('openssh') };
}

function checkedBits(bits: number, allowed: number[]): number {
  if (!allowed.includes(bits)) throw new InvalidRequestError(`refusing to generate an RSA key of ${bits} bits`);
  return bits;
}

function curveOf(bits: number): string {
  const curve = new Map([
    [256, 'prime256v1'],
    [384, 'secp384r1'],
    [521, 'secp521r1'],
  ]).get(bits);
  if (!curve) throw new InvalidRequestError(`invalid key_bits ${bits} for an EC key`);
  return curve;
}

/** Checks an imported pair: the private key parses and the public key is its own. */
export function importKeys(privateKey: string, publicKey: string): CaKeys {
  let key: sshpk.PrivateKey;
  try {
    key = sshpk.parsePrivateKey(privateKey, 'auto');
  } catch (err) {
    throw new InvalidRequestError(`failed to parse private_key: ${(err as Error).message}`);
  }
  const derived = key.toPublic();
  if (publicKey) {
    let given: sshpk.Key;
    try {
      given = sshpk.parseKey(publicKey, 'auto');
    } catch (err) {
      throw new InvalidRequestError(`failed to parse public_key: ${(err as Error).message}`);
    }
    if (given.fingerprint('sha256').toString() !== derived.fingerprint('sha256').toString()) {
      throw new InvalidRequestError('public_key does not match private_key');
    }
  }
  return { public_key: derived.toString('ssh'), private_key: key.toString('openssh') };
}
