/** The key types a PKI root or role takes, as the select offers them. */
export const KEY_TYPES: readonly (readonly [string, string])[] = [
  ['rsa', 'RSA'],
  ['ec', 'EC'],
  ['ed25519', 'Ed25519'],
];
