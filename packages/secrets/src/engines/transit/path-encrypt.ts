import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { BackendRequest } from '../../logical/request.js';
import type { Storage } from '../../logical/storage.js';
import { encryptWith } from './crypt.js';
import type { TransitDeps } from './deps.js';
import { heldKeyOf, type KeyType, keyCreationFields, newHeldKey } from './key-creation.js';
import { type HeldTransitKey, isManaged, type TransitKeyEntry, transitKeys } from './key-store.js';
import { base64Field, itemInt, itemString, optionalBase64, partialFailureField, runBatch } from './wire.js';

const fields = {
  name: field.path({ description: 'Name of the key.' }),
  plaintext: field.string({ description: 'Base64 of the data to encrypt (or batch_input).' }),
  context: field.string({ description: 'Base64 derivation context (derived keys).' }),
  associated_data: field.string({ description: 'Base64 data authenticated with, not in, the ciphertext (AEAD keys).' }),
  nonce: field.string({ description: 'Refused: every key here makes its own nonces.' }),
  key_version: field.int({ description: 'Version to encrypt with; 0 (default) is the latest.', default: 0 }),
  batch_input: field.objects({
    description: 'Items of plaintext, context, associated_data, key_version, reference; answers batch_results.',
  }),
  partial_failure_response_code: partialFailureField,
  type: keyCreationFields.type,
  convergent_encryption: keyCreationFields.convergent_encryption,
};

type EncryptData = { [K in 'plaintext' | 'context' | 'associated_data' | 'nonce']?: string } & {
  key_version: number;
  batch_input?: Record<string, unknown>[];
  partial_failure_response_code?: number;
};

function encryptOne(d: TransitDeps, entry: HeldTransitKey, item: EncryptData) {
  return encryptWith(
    entry,
    {
      plaintext: base64Field(item.plaintext ?? '', 'plaintext'),
      context: optionalBase64(item.context, 'context'),
      aad: optionalBase64(item.associated_data, 'associated_data'),
      nonce: optionalBase64(item.nonce, 'nonce'),
      keyVersion: item.key_version,
    },
    d.random,
  );
}

async function encrypt(d: TransitDeps, entry: HeldTransitKey, data: EncryptData) {
  if (!data.batch_input) {
    if (data.plaintext === undefined) throw new InvalidRequestError('missing plaintext to encrypt');
    return { data: encryptOne(d, entry, data) };
  }
  return runBatch(
    data.batch_input,
    async (item) =>
      encryptOne(d, entry, {
        plaintext: itemString(item, 'plaintext'),
        context: itemString(item, 'context'),
        associated_data: itemString(item, 'associated_data'),
        nonce: itemString(item, 'nonce'),
        key_version: itemInt(item, 'key_version'),
      }),
    data.partial_failure_response_code,
  );
}

/** The key to encrypt with, created first when missing (upsert, as established: derived when a context comes). */
async function upsert(
  d: TransitDeps,
  storage: Storage,
  name: string,
  data: EncryptData & { type: KeyType; convergent_encryption: boolean },
) {
  return d.locks.run(name, async () => {
    if (await transitKeys.get(storage, name)) return heldKeyOf(storage, name, 'encryption key not found');
    if (data.type === 'managed_key') throw new InvalidRequestError('encryption key not found');
    const context = data.batch_input ? itemString(data.batch_input[0] ?? {}, 'context') : data.context;
    const created = newHeldKey(d, {
      exportable: false,
      allow_plaintext_backup: false,
      type: data.type,
      derived: Boolean(context),
      convergent_encryption: Boolean(context) && data.convergent_encryption,
    });
    await transitKeys.put(storage, name, created);
    return created;
  });
}

/**
 * `encrypt/:name`: seal base64 plaintext (or a batch) with the key's latest version (or `key_version`).
 * The key the existence check read is the one the same request's update encrypts with: one read of it
 * per request, not two. (A change to the key between the two steps overlaps the request, so either
 * order of the two is a valid outcome.)
 */
export function pathEncrypt(d: TransitDeps) {
  // The last existence check's request and entry: one slot, as the check and its update follow each
  // other with no other request between them but when a request waits (then the update reads again).
  let checked: { req: BackendRequest; entry: TransitKeyEntry | undefined } | undefined;
  return definePath({
    pattern: 'encrypt/:name',
    fields,
    existenceCheck: async ({ req, storage, data }) => {
      const entry = await transitKeys.view(storage, data.name);
      checked = { req, entry };
      return entry !== undefined;
    },
    operations: {
      create: {
        summary: 'Create the key (type, default aes256-gcm96), then encrypt with it, as established.',
        handler: async ({ storage, data }) => encrypt(d, await upsert(d, storage, data.name, data), data),
      },
      update: {
        summary: 'Encrypt with the key.',
        handler: async ({ req, storage, data }) => {
          const entry = checked?.req === req ? checked.entry : undefined;
          checked = undefined;
          const held = entry && !isManaged(entry) ? entry : undefined;
          return encrypt(d, held ?? (await heldKeyOf(storage, data.name, 'encryption key not found', 'look')), data);
        },
      },
    },
    help: {
      synopsis: 'Encrypt data.',
      description:
        'Answers `ciphertext` as vault:v<version>:<base64 of nonce, ciphertext and tag> (RSA keys: of the OAEP ' +
        'ciphertext) and `key_version`.',
    },
  });
}
