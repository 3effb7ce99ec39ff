import { type CompactVerifyResult, compactVerify, errors, importSPKI, importX509 } from 'jose';

/** Each PEM (public key or certificate) in turn, imported for the token's own `alg`; the first that verifies wins. */
export async function verifyWithPems(jwt: string, pems: string[], algorithms: string[]): Promise<CompactVerifyResult> {
  let last: unknown = new errors.JWSSignatureVerificationFailed();
  for (const pem of pems) {
    try {
      return await compactVerify(
        jwt,
        (header) => (pem.includes('CERTIFICATE') ? importX509(pem, header.alg) : importSPKI(pem, header.alg)),
        { algorithms },
      );
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/** Whether `pem` is a public key or certificate the method can use (checked at config time). */
export async function isUsablePem(pem: string): Promise<boolean> {
  const algs = /BEGIN (RSA )?PUBLIC KEY|CERTIFICATE/.test(pem) ? ['RS256', 'ES256', 'ES384', 'ES512', 'EdDSA'] : [];
  for (const alg of algs) {
    try {
      await (pem.includes('CERTIFICATE') ? importX509(pem, alg) : importSPKI(pem, alg));
      return true;
    } catch {
      // another algorithm may fit the key's type
    }
  }
  return false;
}
