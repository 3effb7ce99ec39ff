import { InvalidRequestError } from '../../logical/errors.js';

/** The backend types, in the spec's spelling; the established names are aliases. */
export const KEY_TYPES = ['pkcs11', 'alphakms', 'betakeyvault', 'gammackms'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

const TYPE_NAMES = new Map<string, KeyType>([
  ['pkcs11', 'pkcs11'],
  ['alphakms', 'alphakms'],
  ['awskms', 'alphakms'],
  ['betakeyvault', 'betakeyvault'],
  ['azurekeyvault', 'betakeyvault'],
  ['gammackms', 'gammackms'],
  ['gcpckms', 'gammackms'],
]);

/** The canonical type a URL or body names, `undefined` for an unknown one. */
export function keyType(name: string): KeyType | undefined {
  return TYPE_NAMES.get(name.toLowerCase());
}

export type ParamValue = string | number | boolean;

/** How a parameter reads back: shown, shown as `redacted`, or left out (cloud credentials). */
type Visibility = 'shown' | 'redacted' | 'omitted';

interface Param {
  default: ParamValue;
  visibility?: Visibility;
}

const GENERIC: Record<string, Param> = {
  allow_generate_key: { default: false },
  allow_replace_key: { default: false },
  allow_store_key: { default: false },
  any_mount: { default: false },
};

/** Every parameter each type stores, with its default. Anything else sent for that type is refused. */
export const TYPE_PARAMS = new Map<KeyType, ReadonlyMap<string, Param>>([
  [
    'pkcs11',
    new Map(
      Object.entries({
        ...GENERIC,
        library: { default: '' },
        key_label: { default: '' },
        key_id: { default: '' },
        mechanism: { default: 0 },
        pin: { default: '', visibility: 'redacted' },
        slot: { default: 0 },
        token_label: { default: '' },
        curve: { default: '' },
        key_bits: { default: 0 },
        force_rw_session: { default: false },
        max_parallel: { default: 1 },
      }),
    ),
  ],
  [
    'alphakms',
    new Map(
      Object.entries({
        ...GENERIC,
        access_key: { default: '', visibility: 'omitted' },
        secret_key: { default: '', visibility: 'omitted' },
        key_type: { default: '' },
        key_bits: { default: '' },
        curve: { default: '' },
        kms_key: { default: '' },
        endpoint: { default: '' },
        region: { default: 'us-east-1' },
      }),
    ),
  ],
  [
    'betakeyvault',
    new Map(
      Object.entries({
        ...GENERIC,
        tenant_id: { default: '' },
        client_id: { default: '' },
        client_secret: { default: '', visibility: 'omitted' },
        environment: { default: 'BETAPUBLICCLOUD' },
        store_name: { default: '' },
        key_name: { default: '' },
        resource: { default: 'vault.azure.net' },
        key_bits: { default: '' },
        key_type: { default: '' },
        endpoint: { default: '' },
      }),
    ),
  ],
  [
    'gammackms',
    new Map(
      Object.entries({
        ...GENERIC,
        credentials: { default: '', visibility: 'omitted' },
        crypto_key: { default: '' },
        crypto_key_version: { default: '1' },
        key_ring: { default: '' },
        project: { default: '' },
        region: { default: '' },
        algorithm: { default: '' },
        endpoint: { default: '' },
      }),
    ),
  ],
]);

/** The stored parameters of a key of `type` after applying `changes` (already coerced by the fields). */
export function mergeParams(
  type: KeyType,
  stored: Record<string, ParamValue> | undefined,
  changes: ReadonlyMap<string, ParamValue>,
): Record<string, ParamValue> {
  const params = TYPE_PARAMS.get(type) as ReadonlyMap<string, Param>;
  const out: Record<string, ParamValue> = Object.create(null);
  for (const [name, param] of params) out[name] = stored?.[name] ?? param.default;
  for (const [name, value] of changes) {
    if (!params.has(name)) throw new InvalidRequestError(`"${name}" is not a parameter of ${type} managed keys`);
    out[name] = value;
  }
  return out;
}

/** The parameters as a read shows them: secrets redacted or left out. */
export function visibleParams(type: KeyType, stored: Record<string, ParamValue>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [name, param] of TYPE_PARAMS.get(type) as ReadonlyMap<string, Param>) {
    const visibility = param.visibility ?? 'shown';
    if (visibility === 'omitted') continue;
    out[name] = visibility === 'redacted' ? 'redacted' : (stored[name] ?? param.default);
  }
  return out;
}
