import { type FieldSpec, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';

/** The spec's storage type names and the established ones; both are accepted and read back as written. */
export const STORAGE_TYPES = [
  'local',
  'alpha-s3',
  'aws-s3',
  'beta-blob',
  'azure-blob',
  'gamma-gcs',
  'google-gcs',
] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];
export type Provider = 'local' | 's3' | 'blob' | 'gcs';

const PROVIDER = new Map<StorageType, Provider>([
  ['local', 'local'],
  ['alpha-s3', 's3'],
  ['aws-s3', 's3'],
  ['beta-blob', 'blob'],
  ['azure-blob', 'blob'],
  ['gamma-gcs', 'gcs'],
  ['google-gcs', 'gcs'],
]);

/** The two spellings of each provider's field prefix: the spec's and the established one. */
const PREFIXES = new Map<Provider, readonly [string, string]>([
  ['s3', ['alpha', 'aws']],
  ['blob', ['beta', 'azure']],
  ['gcs', ['gamma', 'google']],
]);

interface SpecificField {
  provider: Provider;
  /** The name after the provider prefix (`s3_bucket` → `alpha_s3_bucket`, `aws_s3_bucket`). */
  suffix: string;
  kind: 'string' | 'bool';
  isRequired?: boolean;
  /** Never read back. */
  isSecret?: boolean;
  description: string;
}

const SPECIFIC: readonly SpecificField[] = [
  { provider: 's3', suffix: 's3_bucket', kind: 'string', isRequired: true, description: 'Bucket.' },
  { provider: 's3', suffix: 's3_region', kind: 'string', isRequired: true, description: 'Region.' },
  {
    provider: 's3',
    suffix: 'access_key_id',
    kind: 'string',
    description: 'Access key; ambient credentials when omitted.',
  },
  { provider: 's3', suffix: 'secret_access_key', kind: 'string', isSecret: true, description: 'Secret key.' },
  { provider: 's3', suffix: 'session_token', kind: 'string', isSecret: true, description: 'Session token.' },
  { provider: 's3', suffix: 's3_endpoint', kind: 'string', description: 'Endpoint of a non-provider implementation.' },
  { provider: 's3', suffix: 's3_disable_tls', kind: 'bool', description: 'Plain HTTP (testing only).' },
  { provider: 's3', suffix: 's3_force_path_style', kind: 'bool', description: 'Path-style bucket URLs.' },
  { provider: 's3', suffix: 's3_enable_kms', kind: 'bool', description: 'Encrypt with KMS (SSE-KMS).' },
  { provider: 's3', suffix: 's3_server_side_encryption', kind: 'bool', description: 'Encrypt with AES256 (SSE-S3).' },
  { provider: 's3', suffix: 's3_kms_key', kind: 'string', description: 'KMS key when KMS is enabled.' },
  { provider: 'gcs', suffix: 'gcs_bucket', kind: 'string', isRequired: true, description: 'Bucket.' },
  { provider: 'gcs', suffix: 'service_account_key', kind: 'string', isSecret: true, description: 'Key JSON.' },
  { provider: 'gcs', suffix: 'endpoint', kind: 'string', description: 'Endpoint of a non-provider implementation.' },
  { provider: 'gcs', suffix: 'disable_tls', kind: 'bool', description: 'Plain HTTP (testing only).' },
  { provider: 'blob', suffix: 'container_name', kind: 'string', isRequired: true, description: 'Container.' },
  { provider: 'blob', suffix: 'account_name', kind: 'string', description: 'Account name.' },
  { provider: 'blob', suffix: 'account_key', kind: 'string', isSecret: true, description: 'Account key.' },
  { provider: 'blob', suffix: 'blob_environment', kind: 'string', description: 'Cloud environment.' },
  { provider: 'blob', suffix: 'endpoint', kind: 'string', description: 'Endpoint of a non-provider implementation.' },
];

/** Every storage-specific field under both spellings, by wire name. */
const SPECIFIC_BY_NAME = new Map<string, SpecificField>(
  SPECIFIC.flatMap((f) => (PREFIXES.get(f.provider) ?? []).map((p) => [`${p}_${f.suffix}`, f] as const)),
);

export const configFields = {
  interval: field.durationSeconds({
    description: 'Time between snapshots: seconds or a duration (`24h`).',
    required: true,
  }),
  retain: field.int({ description: 'Snapshots kept; older ones this config made are deleted.', default: 1 }),
  path_prefix: field.string({ description: 'Directory (local) or object-name prefix.', required: true }),
  file_prefix: field.string({ description: 'Start of each snapshot name.', default: 'vault-snapshot' }),
  storage_type: field.enum({ description: 'Where snapshots go.', values: STORAGE_TYPES, required: true }),
  local_max_space: field.int({ description: 'local: bytes all of this config’s snapshots may take.' }),
  ...Object.fromEntries(
    [...SPECIFIC_BY_NAME].map(([name, f]) => [
      name,
      f.kind === 'bool' ? field.bool({ description: f.description }) : field.string({ description: f.description }),
    ]),
  ),
} as Record<string, FieldSpec<unknown>> & {
  interval: FieldSpec<number>;
  retain: FieldSpec<number>;
  path_prefix: FieldSpec<string>;
  file_prefix: FieldSpec<string>;
  storage_type: FieldSpec<StorageType>;
  local_max_space: FieldSpec<number | undefined>;
};

/** A stored config: the common fields, plus the specific ones under the names they were written with. */
export interface SnapshotConfig {
  interval: number;
  retain: number;
  path_prefix: string;
  file_prefix: string;
  storage_type: StorageType;
  local_max_space?: number;
  specific: Record<string, string | boolean>;
}

/** Checks a written config and keeps only what was supplied; a 400 names the first problem. */
export function buildConfig(data: Record<string, unknown>, supplied: ReadonlySet<string>): SnapshotConfig {
  const type = data.storage_type as StorageType;
  const provider = providerOf(type);
  const interval = data.interval as number;
  const retain = data.retain as number;
  const pathPrefix = data.path_prefix as string;
  const filePrefix = data.file_prefix as string;
  if (interval < 1) throw new InvalidRequestError('interval must be at least 1 second');
  if (retain < 1) throw new InvalidRequestError('retain must be at least 1');
  if (pathPrefix === '') throw new InvalidRequestError('path_prefix is required');
  if ((provider === 'blob' || provider === 'gcs') && !pathPrefix.endsWith('/')) {
    throw new InvalidRequestError(`path_prefix must end with "/" for storage_type "${type}"`);
  }
  if (filePrefix === '' || filePrefix.includes('/'))
    throw new InvalidRequestError('file_prefix must be a name without "/"');
  const config: SnapshotConfig = {
    interval,
    retain,
    path_prefix: pathPrefix,
    file_prefix: filePrefix,
    storage_type: type,
    specific: {},
  };
  if (provider === 'local') {
    const max = data.local_max_space as number | undefined;
    if (max === undefined || max < 1)
      throw new InvalidRequestError('local_max_space is required for storage_type "local" and must be positive');
    config.local_max_space = max;
  } else if (supplied.has('local_max_space')) {
    throw new InvalidRequestError(`local_max_space does not apply to storage_type "${type}"`);
  }
  for (const [name, f] of SPECIFIC_BY_NAME) {
    if (!supplied.has(name)) continue;
    if (f.provider !== provider) throw new InvalidRequestError(`${name} does not apply to storage_type "${type}"`);
    config.specific[name] = data[name] as string | boolean;
  }
  for (const f of SPECIFIC.filter((s) => s.provider === provider && s.isRequired)) {
    if (specificValue(config, f.suffix) === undefined || specificValue(config, f.suffix) === '') {
      throw new InvalidRequestError(
        `${PREFIXES.get(provider)?.[0]}_${f.suffix} is required for storage_type "${type}"`,
      );
    }
  }
  const serviceAccountKey = specificValue(config, 'service_account_key');
  if (typeof serviceAccountKey === 'string' && serviceAccountKey !== '') checkServiceAccountKey(serviceAccountKey);
  if (specificValue(config, 's3_enable_kms') === true && specificValue(config, 's3_server_side_encryption') === true) {
    throw new InvalidRequestError('server side encryption (AES256) and KMS encryption cannot both be enabled');
  }
  return config;
}

/** A GCS service-account key must be JSON with the two fields the SDK signs with. */
function checkServiceAccountKey(text: string): void {
  let key: unknown;
  try {
    key = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('service_account_key is not valid JSON');
  }
  const { client_email, private_key } = (key ?? {}) as Record<string, unknown>;
  if (typeof client_email !== 'string' || typeof private_key !== 'string') {
    throw new InvalidRequestError('service_account_key needs client_email and private_key');
  }
}

export function providerOf(type: StorageType): Provider {
  return PROVIDER.get(type) ?? 'local';
}

/** A specific field by its suffix, whichever spelling it was written with. */
export function specificValue(config: SnapshotConfig, suffix: string): string | boolean | undefined {
  for (const prefix of PREFIXES.get(providerOf(config.storage_type)) ?? []) {
    const value = config.specific[`${prefix}_${suffix}`];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** What a read shows: secrets (keys, tokens) are never returned once written. */
export function configView(config: SnapshotConfig): Record<string, unknown> {
  const view: Record<string, unknown> = {
    file_prefix: config.file_prefix,
    interval: config.interval,
    path_prefix: config.path_prefix,
    retain: config.retain,
    storage_type: config.storage_type,
  };
  if (config.local_max_space !== undefined) view.local_max_space = config.local_max_space;
  for (const [name, value] of Object.entries(config.specific)) {
    if (!SPECIFIC_BY_NAME.get(name)?.isSecret) view[name] = value;
  }
  return view;
}
