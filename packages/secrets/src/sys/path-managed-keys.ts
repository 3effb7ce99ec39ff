import type { Random } from '@ward/base';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError, NotFoundError, UpstreamError } from '../logical/errors.js';
import { digestOf, HASH_ALGORITHMS, type HashAlgorithm, verifySignature } from './kms/index.js';
import {
  KEY_TYPES,
  type KeyType,
  keyType,
  mergeParams,
  type ParamValue,
  visibleParams,
} from './managed-keys/key-types.js';
import { checkParams } from './managed-keys/key-validation.js';
import type { ManagedKeyRecord, ManagedKeys } from './managed-keys/managed-keys.js';

/** What the managed-key paths use: the namespace's keys, its mounts, and the server's `kms_library` names. */
export interface ManagedKeyPathDeps {
  keys: ManagedKeys;
  mounts: SystemCore['mounts'];
  libraries: ReadonlyMap<string, string>;
  random: Random;
}

const typeField = field.path({
  description: `Backend type: ${KEY_TYPES.join(', ')} (or awskms, azurekeyvault, gcpckms).`,
});
const nameField = field.path({ description: 'Name of the managed key (lower case, unique across types).' });

function typeOf(raw: string): KeyType {
  const type = keyType(raw);
  if (!type) throw new InvalidRequestError(`unsupported managed key type "${raw}"`);
  return type;
}

/** The key of this type named `name`; a key of that name but another type is not found either. */
async function requireKey(deps: ManagedKeyPathDeps, type: KeyType, name: string): Promise<ManagedKeyRecord> {
  const record = await deps.keys.get(name);
  if (!record || record.type !== type) throw new NotFoundError(`no ${type} managed key named "${name}"`);
  return record;
}

/** A read: every parameter (secrets redacted or left out), `mechanism` and `slot` as numbers. */
function keyView(record: ManagedKeyRecord): Record<string, unknown> {
  const view: Record<string, unknown> = { UUID: record.UUID, name: record.name, type: record.type };
  Object.assign(view, visibleParams(record.type, record.params));
  if (record.type === 'pkcs11') view.slot = Number(record.params.slot || 0);
  return view;
}

/** The parameters the caller sent, keyed by wire name (only those the type declares are kept later). */
function suppliedParams(data: Record<string, unknown>, supplied: ReadonlySet<string>): Map<string, ParamValue> {
  const changes = new Map<string, ParamValue>();
  for (const name of supplied) {
    if (name === 'name' || name === 'type') continue;
    const value = data[name];
    if (value !== undefined) changes.set(name, value as ParamValue);
  }
  if (changes.has('mechanism')) changes.set('mechanism', parseMechanism(String(changes.get('mechanism'))));
  if (changes.has('slot')) changes.set('slot', parseSlot(String(changes.get('slot'))));
  return changes;
}

function parseMechanism(text: string): number {
  if (!/^0x[0-9a-fA-F]{1,8}$/.test(text))
    throw new InvalidRequestError('invalid value for "mechanism": expected hexadecimal with a 0x prefix');
  return Number.parseInt(text.slice(2), 16);
}

/** Slots stay decimal strings: HSM slot ids (0x2000000000000001) pass 2^53. */
function parseSlot(text: string): string {
  if (!/^[0-9]+$/.test(text)) throw new InvalidRequestError('invalid value for "slot": expected a decimal number');
  return BigInt(text).toString();
}

const keyFields = {
  type: typeField,
  name: nameField,
  allow_generate_key: field.bool({ description: 'Generate the key in the backend when none is found.' }),
  allow_replace_key: field.bool({ description: 'Allow replacing an existing key through generation or import.' }),
  allow_store_key: field.bool({ description: 'Allow importing a key into the backend.' }),
  any_mount: field.bool({
    description: 'Usable by every mount; otherwise a mount must list it in allowed_managed_keys.',
  }),
  library: field.string({ description: 'pkcs11: name of a kms_library stanza of the server configuration.' }),
  key_label: field.string({ description: 'pkcs11: label of the key (used for a generated key).' }),
  key_id: field.string({ description: 'pkcs11: CKA_ID of the key, hexadecimal.' }),
  mechanism: field.string({ description: 'pkcs11: mechanism, hexadecimal with 0x (0x0001, 0x000D, 0x0009, 0x1041).' }),
  pin: field.string({ description: 'pkcs11: user PIN (never read back).' }),
  slot: field.string({ description: 'pkcs11: slot number, decimal.' }),
  token_label: field.string({ description: 'pkcs11: label of the token (instead of slot).' }),
  curve: field.string({ description: 'EC curve of a generated key: P256, P384, P521.' }),
  key_bits: field.int({ description: 'RSA size of a generated key: 2048, 3072, 4096.' }),
  force_rw_session: field.bool({ description: 'pkcs11: always open read-write sessions.' }),
  max_parallel: field.int({ description: 'pkcs11: concurrent requests to the HSM (default 1).' }),
  access_key: field.string({ description: 'alphakms: access key (or the provider environment).' }),
  secret_key: field.string({ description: 'alphakms: secret key (never read back).' }),
  key_type: field.string({ description: 'alphakms: RSA or ECDSA; betakeyvault: RSA.' }),
  kms_key: field.string({ description: 'alphakms: key ARN, alias or id (an alias when generating).' }),
  endpoint: field.string({ description: 'Cloud types: custom service endpoint URL.' }),
  region: field.string({ description: 'alphakms: region (default us-east-1); gammackms: location.' }),
  tenant_id: field.string({ description: 'betakeyvault: tenant id.' }),
  client_id: field.string({ description: 'betakeyvault: client id.' }),
  client_secret: field.string({ description: 'betakeyvault: client secret (never read back).' }),
  environment: field.string({ description: 'betakeyvault: cloud environment.' }),
  store_name: field.string({ description: 'betakeyvault: key store name.' }),
  key_name: field.string({ description: 'betakeyvault: key name.' }),
  resource: field.string({ description: 'betakeyvault: DNS suffix of the key store.' }),
  credentials: field.string({ description: 'gammackms: path of the credentials file (never read back).' }),
  crypto_key: field.string({ description: 'gammackms: crypto key name.' }),
  crypto_key_version: field.string({ description: 'gammackms: key version (default 1).' }),
  key_ring: field.string({ description: 'gammackms: key ring (must exist).' }),
  project: field.string({ description: 'gammackms: project.' }),
  algorithm: field.string({ description: 'gammackms: signing algorithm of the key.' }),
};

/** `sys/managed-keys/:type` (list), `…/:type/:name` (create, update, read, delete), `…/test/sign`. */
export function pathManagedKeys(deps: ManagedKeyPathDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'managed-keys/:type/',
      fields: { type: typeField },
      operations: {
        list: {
          summary: 'List the managed keys of a type.',
          handler: async ({ data }) => ({
            data: { keys: await deps.keys.list(typeOf(data.type)) },
            dataAtTopLevel: true,
          }),
        },
      },
      help: { synopsis: 'List managed keys.', description: 'Names of the keys of one backend type.' },
    }),
    pathTestSign(deps),
    definePath({
      pattern: 'managed-keys/:type/:name',
      fields: keyFields,
      existenceCheck: async ({ data }) => (await deps.keys.get(data.name)) !== undefined,
      operations: {
        read: {
          summary: 'Read a managed key.',
          handler: async ({ data }) => ({
            data: keyView(await requireKey(deps, typeOf(data.type), data.name)),
            dataAtTopLevel: true,
          }),
        },
        create: { summary: 'Create a managed key.', handler: (ctx) => writeKey(deps, ctx.data, ctx.supplied) },
        update: { summary: 'Update a managed key.', handler: (ctx) => writeKey(deps, ctx.data, ctx.supplied) },
        delete: {
          summary: 'Delete a managed key no mount lists.',
          handler: async ({ data }) => {
            await requireKey(deps, typeOf(data.type), data.name);
            const users = [...deps.mounts.entries('mounts'), ...deps.mounts.entries('auth')]
              .filter((e) => e.config.allowed_managed_keys?.includes(data.name))
              .map((e) => e.path);
            if (users.length > 0)
              throw new InvalidRequestError(`managed key "${data.name}" is in use by mounts: ${users.join(', ')}`);
            await deps.keys.delete(data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Configure a key held in an HSM or a cloud key service.',
        description:
          'Booleans may be sent as JSON booleans or as the strings "true"/"false". The PIN and cloud secrets are never read back.',
      },
    }),
  ];
}

async function writeKey(
  deps: ManagedKeyPathDeps,
  data: Record<string, unknown> & { type: string; name: string },
  supplied: ReadonlySet<string>,
) {
  const type = typeOf(data.type);
  if (supplied.has('type') && typeof data.type === 'string' && keyType(String(data.type)) !== type)
    throw new InvalidRequestError(`invalid value for "type": the path names type ${type}`);
  if (data.name !== data.name.toLowerCase())
    throw new InvalidRequestError('invalid value for "name": must be lower case');
  const existing = await deps.keys.get(data.name);
  if (existing && existing.type !== type)
    throw new InvalidRequestError(`invalid value for "name": a ${existing.type} managed key is named "${data.name}"`);
  const params = mergeParams(type, existing?.params, suppliedParams(data, supplied));
  checkParams(type, params, deps.libraries);
  await deps.keys.put(data.name, type, params);
  return undefined;
}

function pathTestSign(deps: ManagedKeyPathDeps): PathDefinition {
  return definePath({
    pattern: 'managed-keys/:type/:name/test/sign',
    fields: {
      type: typeField,
      name: nameField,
      use_pss: field.bool({ description: 'RSA keys: sign with PSS instead of PKCS#1 v1.5.', default: false }),
      hash_algorithm: field.enum({
        description: 'Hash of the signed data.',
        values: HASH_ALGORITHMS,
        default: 'sha2-256' as const,
      }),
    },
    operations: {
      update: {
        summary: 'Sign random data with the key and verify the signature.',
        handler: async ({ data }) => {
          const record = await requireKey(deps, typeOf(data.type), data.name);
          const backend = deps.keys.backend(record);
          const options = { hash: data.hash_algorithm as HashAlgorithm, usePss: data.use_pss };
          const message = deps.random.bytes(64);
          const signature = await backend.sign(digestOf(message, options.hash), options);
          if (!verifySignature(await backend.publicKey(), message, signature, options))
            throw new UpstreamError(
              `the signature made with managed key "${data.name}" does not verify with its public key`,
            );
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Check that a managed key is usable.',
      description: 'Generates the key first when it is missing and allow_generate_key is set.',
    },
  });
}
