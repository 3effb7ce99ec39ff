import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, UnsupportedPathError } from '../../logical/errors.js';
import type { PkiDeps } from './deps.js';
import { formatPrivateKey } from './issuance.js';
import { allIssuers, importKey, publicKeyPem, resolveKey } from './issuers.js';
import { importManagedKey } from './key-records.js';
import { checkKeyParams, newPrivateKey } from './keys.js';
import { type KeyRecord, pkiStore } from './pki-store.js';

function keyView(key: KeyRecord) {
  const view: Record<string, unknown> = {
    key_id: key.key_id,
    key_name: key.key_name,
    key_type: key.key_type,
    key_bits: key.key_bits,
    public_key: publicKeyPem(key),
  };
  if (key.managed_key_id)
    Object.assign(view, { managed_key_id: key.managed_key_id, managed_key_name: key.managed_key_name });
  return view;
}

const ref = { key_ref: field.path({ description: 'The key (id, name or default).' }) };

/** `keys` (LIST), `key/:ref`, `config/keys`, `keys/generate/:type` and `keys/import`. */
export function pathKeys(d: PkiDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'keys/',
      fields: {},
      operations: {
        list: {
          summary: 'List the keys.',
          handler: async ({ storage }) => {
            const keys: string[] = [];
            const key_info: Record<string, unknown> = {};
            for (const id of await pkiStore.keyIds(storage)) {
              const key = await pkiStore.key(storage, id);
              if (!key) continue;
              keys.push(id);
              key_info[id] = { key_name: key.key_name, key_type: key.key_type };
            }
            return { data: { keys, key_info } };
          },
        },
      },
      help: { synopsis: 'List the keys.', description: 'Ids, with names and types in key_info.' },
    }),
    definePath({
      pattern: 'key/:key_ref',
      fields: { ...ref, key_name: field.string({ description: 'A unique name for the key.' }) },
      operations: {
        read: {
          summary: 'Read a key (its public half).',
          handler: async ({ storage, data }) => ({ data: keyView(await resolveKey(storage, data.key_ref)) }),
        },
        update: {
          summary: 'Rename a key.',
          handler: async ({ storage, data }) => {
            const key = await resolveKey(storage, data.key_ref);
            if (data.key_name !== undefined) key.key_name = data.key_name;
            await pkiStore.putKey(storage, key);
            return { data: keyView(key) };
          },
        },
        delete: {
          summary: 'Delete a key no issuer uses.',
          handler: async ({ storage, data }) => {
            const key = await resolveKey(storage, data.key_ref).catch(() => undefined);
            if (!key) return undefined;
            if ((await allIssuers(storage)).some((i) => i.key_id === key.key_id))
              throw new InvalidRequestError('unable to delete key: an issuer is using it');
            await pkiStore.deleteKey(storage, key.key_id);
            const config = await pkiStore.keysConfig(storage);
            if (config.default === key.key_id) await pkiStore.putKeysConfig(storage, { default: '' });
            return undefined;
          },
        },
      },
      help: { synopsis: 'Manage a key.', description: 'Private keys never leave after generation.' },
    }),
    definePath({
      pattern: 'config/keys',
      fields: { default: field.string({ description: 'The default key (id or name).' }) },
      operations: {
        read: {
          summary: 'Read the default key.',
          handler: async ({ storage }) => ({ data: { ...(await pkiStore.keysConfig(storage)) } }),
        },
        update: {
          summary: 'Set the default key.',
          handler: async ({ storage, data }) => {
            const id = data.default ? (await resolveKey(storage, data.default)).key_id : '';
            await pkiStore.putKeysConfig(storage, { default: id });
            return { data: { default: id } };
          },
        },
      },
      help: { synopsis: 'The default key.', description: 'type existing uses it without key_ref.' },
    }),
    definePath({
      pattern: 'keys/generate/:exported',
      fields: {
        exported: field.path({ description: 'internal, exported, or kms (a managed key).' }),
        managed_key_name: field.string({ description: 'kms: the managed key by name.' }),
        managed_key_id: field.string({ description: 'kms: the managed key by UUID.' }),
        key_type: field.enum({
          description: 'rsa (default), ec or ed25519.',
          values: ['rsa', 'ec', 'ed25519'] as const,
          default: 'rsa' as const,
        }),
        key_bits: field.int({ description: 'Bits (0: the default).', default: 0 }),
        key_name: field.string({ description: 'A unique name.', default: '' }),
      },
      operations: {
        update: {
          summary: 'Generate a key.',
          handler: async ({ storage, data }) => {
            if (data.exported === 'kms') {
              const key = await importManagedKey(d, storage, data);
              return { data: { key_id: key.key_id, key_name: key.key_name, key_type: key.key_type } };
            }
            if (data.exported !== 'internal' && data.exported !== 'exported') throw new UnsupportedPathError();
            const { type, bits } = checkKeyParams(data.key_type, data.key_bits);
            const { key } = await importKey(d, storage, await newPrivateKey(type, bits), data.key_name);
            const out: Record<string, unknown> = { key_id: key.key_id, key_name: key.key_name, key_type: key.key_type };
            if (data.exported === 'exported') out.private_key = formatPrivateKey(key.private_key, 'pem', 'der');
            return { data: out };
          },
        },
      },
      help: { synopsis: 'Generate a key.', description: 'exported answers the private key once.' },
    }),
    definePath({
      pattern: 'keys/import',
      fields: {
        pem_bundle: field.string({ description: 'The private key, PEM.', required: true }),
        key_name: field.string({ description: 'A unique name.', default: '' }),
      },
      operations: {
        update: {
          summary: 'Import a key.',
          handler: async ({ storage, data }) => {
            const { key } = await importKey(d, storage, data.pem_bundle, data.key_name);
            return { data: { key_id: key.key_id, key_name: key.key_name, key_type: key.key_type } };
          },
        },
      },
      help: { synopsis: 'Import a key.', description: 'An issuer imported later finds it by public key.' },
    }),
  ];
}
