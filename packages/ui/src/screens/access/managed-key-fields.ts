/** The managed key backend types (the spec's names; Ward also takes awskms, azurekeyvault, gcpckms). */
export const MANAGED_KEY_TYPES = [
  ['pkcs11', 'PKCS#11 (HSM)'],
  ['alphakms', 'AWS KMS'],
  ['betakeyvault', 'Azure Key Vault'],
  ['gammackms', 'Google Cloud KMS'],
] as const;

export interface KeyParam {
  name: string;
  label: string;
  hint?: string;
  isSecret?: boolean;
}

/** Each type's own parameters (`sys/managed-keys/:type/:name`), as the create form asks for them. */
export const KEY_PARAMS: Readonly<Record<string, readonly KeyParam[]>> = {
  pkcs11: [
    { name: 'library', label: 'Library', hint: 'The name of a kms_library stanza of the server configuration.' },
    { name: 'token_label', label: 'Token label', hint: 'Or a slot below.' },
    { name: 'slot', label: 'Slot', hint: 'Decimal.' },
    { name: 'pin', label: 'PIN', isSecret: true },
    { name: 'key_label', label: 'Key label' },
    { name: 'key_id', label: 'Key ID', hint: 'Instead of the label: CKA_ID, hexadecimal.' },
    { name: 'mechanism', label: 'Mechanism', hint: '0x0001 RSA PKCS#1, 0x000D RSA PSS, 0x1041 ECDSA.' },
    { name: 'key_bits', label: 'Key bits', hint: 'RSA keys to generate: 2048, 3072 or 4096.' },
    { name: 'curve', label: 'Curve', hint: 'EC keys to generate: P256, P384, P521.' },
  ],
  alphakms: [
    { name: 'access_key', label: 'Access key' },
    { name: 'secret_key', label: 'Secret key', isSecret: true },
    { name: 'region', label: 'Region', hint: 'Default us-east-1.' },
    { name: 'endpoint', label: 'Endpoint', hint: 'A non-provider implementation.' },
    { name: 'kms_key', label: 'KMS key', hint: 'ARN, alias or ID (an alias when generating).' },
    { name: 'key_type', label: 'Key type', hint: 'RSA or ECDSA.' },
    { name: 'key_bits', label: 'Key bits' },
    { name: 'curve', label: 'Curve' },
  ],
  betakeyvault: [
    { name: 'tenant_id', label: 'Tenant ID' },
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret', isSecret: true },
    { name: 'store_name', label: 'Key store name' },
    { name: 'key_name', label: 'Key name' },
    { name: 'key_type', label: 'Key type', hint: 'RSA.' },
    { name: 'key_bits', label: 'Key bits' },
    { name: 'environment', label: 'Environment' },
    { name: 'resource', label: 'Resource' },
  ],
  gammackms: [
    { name: 'credentials', label: 'Credentials file', isSecret: true },
    { name: 'project', label: 'Project' },
    { name: 'region', label: 'Region' },
    { name: 'key_ring', label: 'Key ring' },
    { name: 'crypto_key', label: 'Crypto key' },
    { name: 'crypto_key_version', label: 'Crypto key version' },
    { name: 'algorithm', label: 'Algorithm', hint: 'Such as EC_SIGN_P256_SHA256.' },
    { name: 'endpoint', label: 'Endpoint' },
  ],
};

export const HASH_ALGORITHMS = [
  'sha2-256',
  'sha2-224',
  'sha2-384',
  'sha2-512',
  'sha1',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
] as const;
