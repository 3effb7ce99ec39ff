import { constants, createECDH, createHash, type KeyObject, privateEncrypt, randomBytes } from 'node:crypto';

/**
 * Signing a precomputed digest, as cloud key services do (Node's `crypto.sign` hashes its
 * input itself). RSA PKCS#1 v1.5 wraps the digest in its DigestInfo; PSS is encoded here
 * (EMSA-PSS, RFC 8017 §9.1.1, MGF1 with the same hash, salt as long as the digest) and
 * raised to the private exponent; ECDSA signs the digest as given (k·G from Node's ECDH, the
 * rest in BigInt arithmetic), in DER.
 */
const DIGEST_INFO = new Map([
  ['sha256', '3031300d060960864801650304020105000420'],
  ['sha384', '3041300d060960864801650304020205000430'],
  ['sha512', '3051300d060960864801650304020305000440'],
]);

export function signDigest(key: KeyObject, digest: Buffer, hash: 'sha256' | 'sha384' | 'sha512', pss: boolean): Buffer {
  if (key.asymmetricKeyType === 'ec') return ecdsaDigest(key, digest);
  if (!pss) {
    const prefix = Buffer.from(DIGEST_INFO.get(hash) ?? '', 'hex');
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([prefix, digest]));
  }
  const modBits = key.asymmetricKeyDetails?.modulusLength ?? 2048;
  return privateEncrypt({ key, padding: constants.RSA_NO_PADDING }, emsaPss(digest, hash, modBits - 1));
}

function emsaPss(mHash: Buffer, hash: string, emBits: number): Buffer {
  const hLen = mHash.length;
  const emLen = Math.ceil(emBits / 8);
  const salt = randomBytes(hLen);
  const h = createHash(hash)
    .update(Buffer.concat([Buffer.alloc(8), mHash, salt]))
    .digest();
  const db = Buffer.concat([Buffer.alloc(emLen - 2 * hLen - 2), Buffer.from([1]), salt]);
  const mask = mgf1(h, emLen - hLen - 1, hash);
  for (let i = 0; i < db.length; i++) db[i] = (db[i] ?? 0) ^ (mask[i] ?? 0);
  db[0] = (db[0] ?? 0) & (0xff >> (8 * emLen - emBits));
  const em = Buffer.concat([db, h, Buffer.from([0xbc])]);
  // RSA_NO_PADDING wants exactly the modulus length (emLen is one byte shorter when modBits ≡ 1 mod 8).
  return em.length * 8 < emBits + 1 ? Buffer.concat([Buffer.alloc(1), em]) : em;
}

function mgf1(seed: Buffer, length: number, hash: string): Buffer {
  const parts: Buffer[] = [];
  for (let counter = 0; parts.length * seed.length < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    parts.push(createHash(hash).update(seed).update(c).digest());
  }
  return Buffer.concat(parts).subarray(0, length);
}

/** Group orders of the curves the fakes hold. */
const CURVES = new Map([
  ['prime256v1', { n: BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551'), bytes: 32 }],
  [
    'secp384r1',
    {
      n: BigInt('0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973'),
      bytes: 48,
    },
  ],
]);

function ecdsaDigest(key: KeyObject, digest: Buffer): Buffer {
  const curveName = key.asymmetricKeyDetails?.namedCurve ?? '';
  const curve = CURVES.get(curveName);
  if (!curve) throw new Error(`fake ECDSA: unsupported curve ${curveName}`);
  const { n, bytes } = curve;
  const d = toBig(Buffer.from(key.export({ format: 'jwk' }).d ?? '', 'base64url'));
  const z = toBig(digest.subarray(0, bytes)) % n;
  for (;;) {
    const k = (toBig(randomBytes(bytes + 8)) % (n - 1n)) + 1n;
    const ecdh = createECDH(curveName);
    ecdh.setPrivateKey(Buffer.from(k.toString(16).padStart(bytes * 2, '0'), 'hex'));
    const r = toBig(ecdh.getPublicKey().subarray(1, 1 + bytes)) % n;
    const s = (modPow(k, n - 2n, n) * ((z + r * d) % n)) % n;
    if (r !== 0n && s !== 0n) return der(r, s);
  }
}

function toBig(bytes: Buffer): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`);
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

function der(r: bigint, s: bigint): Buffer {
  const int = (v: bigint) => {
    let hex = v.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    let body = Buffer.from(hex, 'hex');
    if ((body[0] ?? 0) & 0x80) body = Buffer.concat([Buffer.alloc(1), body]);
    return Buffer.concat([Buffer.from([2, body.length]), body]);
  };
  const seq = Buffer.concat([int(r), int(s)]);
  return Buffer.concat([Buffer.from(seq.length < 128 ? [0x30, seq.length] : [0x30, 0x81, seq.length]), seq]);
}
