import { InvalidRequestError } from '../logical/errors.js';
import { parseBool } from './config-document.js';

/** The key services an auto seal can use, by the spec's names (`alphakms` is AWS KMS, …). */
export type SealProvider = 'pkcs11' | 'alphakms' | 'betakeyvault' | 'gammackms' | 'transit';

/** Stanza name → provider: the spec's names and the established ones (`awskms`, `azurekeyvault`, `gcpckms`). */
const PROVIDER_OF = new Map<string, SealProvider>([
  ['pkcs11', 'pkcs11'],
  ['transit', 'transit'],
  ['alphakms', 'alphakms'],
  ['awskms', 'alphakms'],
  ['betakeyvault', 'betakeyvault'],
  ['azurekeyvault', 'betakeyvault'],
  ['gammackms', 'gammackms'],
  ['gcpckms', 'gammackms'],
]);

interface KeySpec {
  /** Keys acted on. */
  keys: readonly string[];
  /** Keys of the established stanza that Ward accepts but does not act on (a startup warning names them). */
  inert: readonly string[];
}

/** Every key each stanza may hold; `disabled` is common to all. */
const KEYS = new Map<SealProvider, KeySpec>([
  [
    'pkcs11',
    {
      keys: [
        'lib',
        'slot',
        'token_label',
        'pin',
        'key_label',
        'default_key_label',
        'key_id',
        'mechanism',
        'generate_key',
      ],
      inert: [
        // AES-GCM and RSA-OAEP authenticate what they encrypt: Ward uses no separate HMAC key.
        'hmac_key_label',
        'hmac_default_key_label',
        'hmac_key_id',
        'hmac_mechanism',
        'generate_hmac_key',
        'rsa_encrypt_local',
        'disable_auto_reinit_on_error',
        'max_parallel',
      ],
    },
  ],
  [
    'transit',
    {
      keys: [
        'address',
        'token',
        'key_name',
        'mount_path',
        'namespace',
        'tls_ca_cert',
        'tls_client_cert',
        'tls_client_key',
        'tls_server_name',
        'tls_skip_verify',
      ],
      // The token is used as given: Ward neither renews it nor prefixes key ids.
      inert: ['disable_renewal', 'key_id_prefix'],
    },
  ],
  [
    'alphakms',
    {
      keys: ['region', 'access_key', 'secret_key', 'session_token', 'kms_key_id', 'endpoint'],
      inert: ['shared_creds_file', 'shared_creds_profile', 'web_identity_token_file', 'role_arn', 'role_session_name'],
    },
  ],
  [
    'betakeyvault',
    {
      // `endpoint` (the vault's URL) is Ward's: sovereign clouds and test doubles.
      keys: ['tenant_id', 'client_id', 'client_secret', 'vault_name', 'key_name', 'resource', 'endpoint'],
      inert: ['environment'],
    },
  ],
  [
    'gammackms',
    {
      // `endpoint` is Ward's: a KMS-compatible endpoint (test doubles).
      keys: ['credentials', 'project', 'region', 'key_ring', 'crypto_key', 'endpoint'],
      inert: [],
    },
  ],
]);

/** The key a `pkcs11` seal finds (or generates) and the mechanism it encrypts with. */
export interface Pkcs11SealSettings {
  provider: 'pkcs11';
  lib: string;
  slot?: bigint;
  tokenLabel?: string;
  pin: string;
  keyLabel?: string;
  keyId?: Buffer;
  /** `CKM_AES_GCM` (0x1087, the default) or `CKM_RSA_PKCS_OAEP` (0x0009). */
  mechanism: number;
  /** `generate_key = "true"`: an AES-256 key is generated under `key_label` when none is found. */
  generateKey: boolean;
  /** `rsa_oaep_hash` for CKM_RSA_PKCS_OAEP: `sha1`, `sha224`, `sha256` (the default), `sha384`, `sha512`. */
  rsaOaepHash: RsaOaepHash;
}

export type RsaOaepHash = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
const OAEP_HASHES: readonly RsaOaepHash[] = ['sha1', 'sha224', 'sha256', 'sha384', 'sha512'];

/** Another server's transit engine. */
export interface TransitSealSettings {
  provider: 'transit';
  address: string;
  token: string;
  keyName: string;
  mountPath: string;
  namespace?: string;
  tlsCaCert?: string;
  tlsClientCert?: string;
  tlsClientKey?: string;
  tlsServerName?: string;
  tlsSkipVerify: boolean;
}

export interface AwsKmsSealSettings {
  provider: 'alphakms';
  region: string;
  accessKey?: string;
  secretKey?: string;
  sessionToken?: string;
  kmsKeyId: string;
  endpoint?: string;
}

export interface AzureKeyVaultSealSettings {
  provider: 'betakeyvault';
  tenantId: string;
  clientId: string;
  clientSecret: string;
  vaultName: string;
  keyName: string;
  resource: string;
  endpoint?: string;
}

export interface GcpKmsSealSettings {
  provider: 'gammackms';
  credentials?: string;
  project: string;
  region: string;
  keyRing: string;
  cryptoKey: string;
  endpoint?: string;
}

export type SealSettings =
  | Pkcs11SealSettings
  | TransitSealSettings
  | AwsKmsSealSettings
  | AzureKeyVaultSealSettings
  | GcpKmsSealSettings;

/** One `seal "<type>" { … }` stanza, validated. */
export interface SealStanza {
  /** The stanza's label as written (`awskms`, `alphakms`, …). */
  type: string;
  /** `disabled = "true"`: the seal a migration moves away from. */
  disabled: boolean;
  settings: SealSettings;
  /** Keys given that Ward accepts without acting on them (the server warns about each). */
  inertKeys: string[];
}

/** The `seal` stanzas: the one in force and, during a migration, the disabled one it replaces. */
export interface SealsConfig {
  enabled?: SealStanza;
  disabled?: SealStanza;
}

type RefuseUnknown = (block: Record<string, unknown>, known: readonly string[], where: string) => void;

/**
 * Validates the `seal` stanzas (as `labelled` pairs): at most two, at most one of them enabled
 * and, when there are two, the other one `disabled` (a migration between auto seals); a lone
 * disabled stanza is a migration from it to Shamir.
 */
export function parseSeals(
  stanzas: Array<[string, Record<string, unknown>]>,
  refuseUnknown: RefuseUnknown,
): SealsConfig {
  const parsed = stanzas.map(([type, body]) => parseSealStanza(type, body, refuseUnknown));
  if (parsed.length > 2)
    throw new InvalidRequestError(
      'at most two seal stanzas are allowed (the seal in force and, during a migration, the old one with disabled = "true")',
    );
  const enabled = parsed.filter((s) => !s.disabled);
  const disabled = parsed.filter((s) => s.disabled);
  if (enabled.length > 1)
    throw new InvalidRequestError(
      'only one seal may be enabled: mark the old one disabled = "true" to migrate from it',
    );
  if (disabled.length > 1) throw new InvalidRequestError('only one seal may be disabled');
  return { enabled: enabled[0], disabled: disabled[0] };
}

function parseSealStanza(type: string, body: Record<string, unknown>, refuseUnknown: RefuseUnknown): SealStanza {
  const provider = PROVIDER_OF.get(type);
  if (!provider) {
    throw new InvalidRequestError(
      `unknown seal type "${type}"; use "pkcs11", "transit", "alphakms" (awskms), "betakeyvault" (azurekeyvault) or "gammackms" (gcpckms)`,
    );
  }
  const spec = KEYS.get(provider) as KeySpec;
  refuseUnknown(body, [...spec.keys, ...spec.inert, 'disabled'], `in seal "${type}"`);
  const text = stringReader(body, type);
  return {
    type,
    disabled: parseBool(body.disabled, 'disabled'),
    settings: settingsOf(provider, text, body),
    inertKeys: spec.inert.filter((k) => body[k] !== undefined),
  };
}

interface Reader {
  optional(key: string): string | undefined;
  required(key: string): string;
}

/** Strings of a stanza (numbers and booleans are read as written, as established configs quote freely). */
function stringReader(body: Record<string, unknown>, type: string): Reader {
  const optional = (key: string) => {
    const v = body[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw new InvalidRequestError(`seal "${type}": ${key} must be a string`);
  };
  const required = (key: string) => {
    const v = optional(key);
    if (v === undefined) throw new InvalidRequestError(`seal "${type}": ${key} is required`);
    return v;
  };
  return { optional, required };
}

function settingsOf(provider: SealProvider, r: Reader, body: Record<string, unknown>): SealSettings {
  switch (provider) {
    case 'pkcs11':
      return pkcs11Settings(r, body);
    case 'transit':
      return {
        provider,
        address: r.required('address'),
        token: r.required('token'),
        keyName: r.required('key_name'),
        mountPath: r.required('mount_path').replace(/^\/+|\/+$/g, ''),
        namespace: r.optional('namespace'),
        tlsCaCert: r.optional('tls_ca_cert'),
        tlsClientCert: r.optional('tls_client_cert'),
        tlsClientKey: r.optional('tls_client_key'),
        tlsServerName: r.optional('tls_server_name'),
        tlsSkipVerify: parseBool(body.tls_skip_verify, 'tls_skip_verify'),
      };
    case 'alphakms':
      return {
        provider,
        region: r.optional('region') ?? 'us-east-1',
        accessKey: r.optional('access_key'),
        secretKey: r.optional('secret_key'),
        sessionToken: r.optional('session_token'),
        kmsKeyId: r.required('kms_key_id'),
        endpoint: r.optional('endpoint'),
      };
    case 'betakeyvault':
      return {
        provider,
        tenantId: r.required('tenant_id'),
        clientId: r.required('client_id'),
        clientSecret: r.required('client_secret'),
        vaultName: r.required('vault_name'),
        keyName: r.required('key_name'),
        resource: r.optional('resource') ?? 'vault.azure.net',
        endpoint: r.optional('endpoint'),
      };
    case 'gammackms':
      return {
        provider,
        credentials: r.optional('credentials'),
        project: r.required('project'),
        region: r.optional('region') ?? 'global',
        keyRing: r.required('key_ring'),
        cryptoKey: r.required('crypto_key'),
        endpoint: r.optional('endpoint'),
      };
  }
}

const CKM_AES_GCM = 0x1087;
const CKM_RSA_PKCS_OAEP = 0x0009;

function pkcs11Settings(r: Reader, body: Record<string, unknown>): Pkcs11SealSettings {
  const keyLabel = r.optional('key_label') ?? r.optional('default_key_label');
  const keyIdText = r.optional('key_id');
  if (keyLabel === undefined && keyIdText === undefined) {
    throw new InvalidRequestError('seal "pkcs11": key_label or key_id is required');
  }
  const mechanismText = r.optional('mechanism');
  const mechanism = mechanismText === undefined ? CKM_AES_GCM : Number(mechanismText);
  if (mechanism !== CKM_AES_GCM && mechanism !== CKM_RSA_PKCS_OAEP) {
    throw new InvalidRequestError(
      `seal "pkcs11": mechanism ${mechanismText} is not supported; use 0x1087 (CKM_AES_GCM) or 0x0009 (CKM_RSA_PKCS_OAEP)`,
    );
  }
  const rsaOaepHash = (r.optional('rsa_oaep_hash') ?? 'sha256').toLowerCase() as RsaOaepHash;
  if (!OAEP_HASHES.includes(rsaOaepHash)) {
    throw new InvalidRequestError(`seal "pkcs11": rsa_oaep_hash must be one of ${OAEP_HASHES.join(', ')}`);
  }
  const slotText = r.optional('slot');
  if (slotText !== undefined && !/^(?:\d+|0x[0-9a-fA-F]+)$/.test(slotText)) {
    throw new InvalidRequestError(`seal "pkcs11": slot must be a number, got ${JSON.stringify(slotText)}`);
  }
  return {
    provider: 'pkcs11',
    lib: r.required('lib'),
    slot: slotText === undefined ? undefined : BigInt(slotText),
    tokenLabel: r.optional('token_label'),
    pin: r.required('pin'),
    keyLabel,
    keyId: keyIdText === undefined ? undefined : Buffer.from(keyIdText.replace(/^0x/, ''), 'hex'),
    mechanism,
    generateKey: parseBool(body.generate_key, 'generate_key'),
    rsaOaepHash,
  };
}
