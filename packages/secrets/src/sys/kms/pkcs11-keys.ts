import { createPublicKey, type KeyObject } from 'node:crypto';
import pkcs11js from 'pkcs11js';

/** DER OIDs (CKA_EC_PARAMS) of the curves a managed key may name. */
export const CURVE_PARAMS = new Map([
  ['P256', Buffer.from('06082a8648ce3d030107', 'hex')],
  ['P384', Buffer.from('06052b81040022', 'hex')],
  ['P521', Buffer.from('06052b81040023', 'hex')],
]);

const JWK_CURVE = new Map([
  ['06082a8648ce3d030107', 'P-256'],
  ['06052b81040022', 'P-384'],
  ['06052b81040023', 'P-521'],
]);

/** How a managed key finds its object: by `key_label`, by `key_id` (bytes), or both. */
export interface KeySelector {
  label?: string;
  id?: Buffer;
}

/** The first object of `objectClass` matching `selector`, if any. */
export function findObject(
  module: pkcs11js.PKCS11,
  session: Buffer,
  objectClass: number,
  selector: KeySelector,
): Buffer | undefined {
  const template: pkcs11js.Template = [{ type: pkcs11js.CKA_CLASS, value: objectClass }];
  if (selector.label !== undefined) template.push({ type: pkcs11js.CKA_LABEL, value: selector.label });
  if (selector.id !== undefined) template.push({ type: pkcs11js.CKA_ID, value: selector.id });
  module.C_FindObjectsInit(session, template);
  try {
    return module.C_FindObjects(session, 1)[0];
  } finally {
    module.C_FindObjectsFinal(session);
  }
}

/** The public half of a key pair, from its public-key object (RSA modulus/exponent or EC point). */
export function readPublicKey(module: pkcs11js.PKCS11, session: Buffer, publicKey: Buffer): KeyObject {
  const [type] = module.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_KEY_TYPE }]);
  if ((type?.value as Buffer).readUInt32LE(0) === pkcs11js.CKK_RSA) {
    const [n, e] = module.C_GetAttributeValue(session, publicKey, [
      { type: pkcs11js.CKA_MODULUS },
      { type: pkcs11js.CKA_PUBLIC_EXPONENT },
    ]);
    return createPublicKey({
      key: { kty: 'RSA', n: b64url(n?.value as Buffer), e: b64url(e?.value as Buffer) },
      format: 'jwk',
    });
  }
  const [params, point] = module.C_GetAttributeValue(session, publicKey, [
    { type: pkcs11js.CKA_EC_PARAMS },
    { type: pkcs11js.CKA_EC_POINT },
  ]);
  const crv = JWK_CURVE.get((params?.value as Buffer).toString('hex'));
  if (!crv) throw new Error('unsupported EC curve');
  // CKA_EC_POINT is the uncompressed point wrapped in a DER OCTET STRING.
  const encoded = point?.value as Buffer;
  const headerLength = (encoded[1] ?? 0) & 0x80 ? 2 + ((encoded[1] ?? 0) & 0x7f) : 2;
  const xy = encoded.subarray(headerLength + 1);
  const half = xy.length / 2;
  return createPublicKey({
    key: { kty: 'EC', crv, x: b64url(xy.subarray(0, half)), y: b64url(xy.subarray(half)) },
    format: 'jwk',
  });
}

/** Generates a token key pair: RSA of `keyBits`, or EC on `curve`, labelled `label`. */
export async function generateKeyPair(
  module: pkcs11js.PKCS11,
  session: Buffer,
  spec: { label: string; id?: Buffer } & ({ keyBits: number } | { curve: string }),
): Promise<void> {
  const common = [
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_LABEL, value: spec.label },
    ...(spec.id ? [{ type: pkcs11js.CKA_ID, value: spec.id }] : []),
  ];
  const isRsa = 'keyBits' in spec;
  const publicTemplate: pkcs11js.Template = isRsa
    ? [
        { type: pkcs11js.CKA_MODULUS_BITS, value: spec.keyBits },
        { type: pkcs11js.CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
      ]
    : [{ type: pkcs11js.CKA_EC_PARAMS, value: CURVE_PARAMS.get(spec.curve) as Buffer }];
  await module.C_GenerateKeyPairAsync(
    session,
    { mechanism: isRsa ? pkcs11js.CKM_RSA_PKCS_KEY_PAIR_GEN : pkcs11js.CKM_EC_KEY_PAIR_GEN },
    [...common, ...publicTemplate, { type: pkcs11js.CKA_VERIFY, value: true }],
    [
      ...common,
      { type: pkcs11js.CKA_SIGN, value: true },
      { type: pkcs11js.CKA_PRIVATE, value: true },
      { type: pkcs11js.CKA_SENSITIVE, value: true },
      { type: pkcs11js.CKA_EXTRACTABLE, value: false },
    ],
  );
}

function b64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}
