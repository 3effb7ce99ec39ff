/** The key services behind managed keys and auto seals: PKCS#11, AWS KMS, Azure Key Vault, Google Cloud KMS. @module */
import type { KeyType, ParamValue } from '../managed-keys/key-types.js';
import { AwsKmsBackend } from './aws-kms.js';
import { AzureKeyVaultBackend } from './azure-key-vault.js';
import { GcpKmsBackend } from './gcp-kms.js';
import type { ManagedKeyBackend } from './managed-key-backend.js';
import { CKM_ECDSA, Pkcs11Backend } from './pkcs11.js';
import type { Pkcs11Modules } from './pkcs11-modules.js';

export {
  digestOf,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  type ManagedKeyBackend,
  type SignOptions,
  verifySignature,
} from './managed-key-backend.js';
export { Pkcs11Modules } from './pkcs11-modules.js';

/** What the providers need from the server: its `kms_library` stanzas and the loaded PKCS#11 libraries. */
export interface KmsDeps {
  /** `kms_library "pkcs11"` stanzas: lower-case name → library path. */
  libraries: ReadonlyMap<string, string>;
  pkcs11: Pkcs11Modules;
}

/** The provider of a stored managed key, connected with its parameters. */
export function createManagedKeyBackend(
  type: KeyType,
  p: Record<string, ParamValue>,
  deps: KmsDeps,
): ManagedKeyBackend {
  if (type === 'pkcs11') {
    const keyId = String(p.key_id ?? '');
    return new Pkcs11Backend(deps.pkcs11, {
      libraryPath: deps.libraries.get(String(p.library).toLowerCase()) ?? '',
      slot: p.slot ? BigInt(String(p.slot)) : undefined,
      tokenLabel: p.token_label ? String(p.token_label) : undefined,
      pin: String(p.pin),
      key: {
        label: p.key_label ? String(p.key_label) : undefined,
        id: keyId ? Buffer.from(keyId.replace(/^0x/, ''), 'hex') : undefined,
      },
      mechanism: Number(p.mechanism),
      keyBits: Number(p.key_bits),
      curve: String(p.curve ?? ''),
      allowGenerateKey: p.allow_generate_key === true,
      forceRwSession: p.force_rw_session === true,
      maxParallel: Number(p.max_parallel) || 1,
    });
  }
  if (type === 'alphakms') {
    return new AwsKmsBackend({
      region: String(p.region || 'us-east-1'),
      endpoint: String(p.endpoint ?? ''),
      accessKey: String(p.access_key ?? ''),
      secretKey: String(p.secret_key ?? ''),
      kmsKey: String(p.kms_key),
      keyType: String(p.key_type).toUpperCase() === 'RSA' ? 'RSA' : 'ECDSA',
      keyBits: Number(p.key_bits),
      curve: String(p.curve ?? ''),
      allowGenerateKey: p.allow_generate_key === true,
    });
  }
  if (type === 'betakeyvault') {
    return new AzureKeyVaultBackend({
      tenantId: String(p.tenant_id),
      clientId: String(p.client_id ?? ''),
      clientSecret: String(p.client_secret ?? ''),
      storeName: String(p.store_name),
      keyName: String(p.key_name),
      resource: String(p.resource || 'vault.azure.net'),
      endpoint: String(p.endpoint ?? ''),
      keyBits: Number(p.key_bits) || 2048,
      allowGenerateKey: p.allow_generate_key === true,
    });
  }
  return new GcpKmsBackend({
    credentials: String(p.credentials ?? ''),
    project: String(p.project),
    region: String(p.region),
    keyRing: String(p.key_ring),
    cryptoKey: String(p.crypto_key),
    cryptoKeyVersion: String(p.crypto_key_version || '1'),
    algorithm: String(p.algorithm),
    allowGenerateKey: p.allow_generate_key === true,
    endpoint: String(p.endpoint ?? ''),
  });
}

export { CKM_ECDSA };
