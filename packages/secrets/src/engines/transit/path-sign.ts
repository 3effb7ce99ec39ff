import {
  definePath,
  digestOf,
  field,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  type ManagedKeySigner,
  type PathDefinition,
  verifySignature,
} from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { TransitDeps } from './backend.js';
import { isManaged, transitKeys } from './key-store.js';

/** Fields both sign and verify take. */
const commonFields = {
  name: field.path({ description: 'Name of the key.' }),
  input: field.string({ description: 'Base64 of the data.', required: true }),
  hash_algorithm: field.string({ description: `One of ${HASH_ALGORITHMS.join(', ')} (default sha2-256).` }),
  signature_algorithm: field.enum({
    description: 'RSA keys: pss (default) or pkcs1v15.',
    values: ['pss', 'pkcs1v15'] as const,
    default: 'pss' as const,
  }),
  marshaling_algorithm: field.enum({
    description: 'Signature encoding: asn1 (the only one here).',
    values: ['asn1'] as const,
    default: 'asn1' as const,
  }),
};

/** The URL form (`sign/:name/:urlalgorithm`) names the hash in the path. */
const urlAlgorithm = { urlalgorithm: field.path({ description: 'Hash algorithm, in the URL instead of the body.' }) };

/** The plain and the URL-algorithm pattern of `verb`, each with its own fields. */
function patterns<F extends object>(verb: string, fields: F) {
  return [
    { pattern: `${verb}/:name`, fields },
    { pattern: `${verb}/:name/:urlalgorithm`, fields: { ...fields, ...urlAlgorithm } },
  ];
}

interface CommonData {
  name: string;
  input: string;
  hash_algorithm?: string;
  urlalgorithm?: unknown;
  signature_algorithm: 'pss' | 'pkcs1v15';
}

function hashOf(data: CommonData): HashAlgorithm {
  const hash = (data.urlalgorithm as string | undefined) || data.hash_algorithm || 'sha2-256';
  if (!(HASH_ALGORITHMS as readonly string[]).includes(hash))
    throw new InvalidRequestError(`invalid value for "hash_algorithm": unsupported hash algorithm ${hash}`);
  return hash as HashAlgorithm;
}

function inputOf(data: CommonData): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data.input))
    throw new InvalidRequestError('invalid value for "input": unable to decode input as base64');
  return Buffer.from(data.input, 'base64');
}

/** `signature_algorithm` only concerns RSA keys (its default, pss, is ignored for EC keys). */
async function isPss(key: ManagedKeySigner, data: CommonData): Promise<boolean> {
  return data.signature_algorithm === 'pss' && (await key.publicKey()).asymmetricKeyType === 'rsa';
}

async function keyOf(d: TransitDeps, storage: Storage, name: string) {
  const entry = await transitKeys.get(storage, name);
  if (!entry) throw new NotFoundError(`signing key not found`);
  if (!isManaged(entry)) throw new InvalidRequestError(`key type ${entry.type} does not support signing`);
  return d.managedKey({ id: entry.managed_key_id });
}

/** `sign/:name` and `sign/:name/:urlalgorithm`: sign the input inside the HSM or key service. */
export function pathSign(d: TransitDeps): PathDefinition[] {
  return patterns('sign', commonFields).map(({ pattern, fields }) =>
    definePath({
      pattern,
      fields,
      operations: {
        update: {
          summary: 'Sign data with the key.',
          handler: async ({ storage, data }) => {
            const key = await keyOf(d, storage, data.name);
            const hash = hashOf(data);
            const input = inputOf(data);
            const usePss = await isPss(key, data);
            const signature = await key.sign(digestOf(input, hash), { hash, usePss });
            return { data: { signature: `vault:v1:${Buffer.from(signature).toString('base64')}`, key_version: 1 } };
          },
        },
      },
      help: { synopsis: 'Sign data.', description: 'RSA keys sign with PSS unless signature_algorithm is pkcs1v15.' },
    }),
  );
}

/** `verify/:name` and `verify/:name/:urlalgorithm`: check a signature with the key's public half. */
export function pathVerify(d: TransitDeps): PathDefinition[] {
  const fields = { ...commonFields, signature: field.string({ description: 'vault:v1:… signature.', required: true }) };
  return patterns('verify', fields).map(({ pattern, fields }) =>
    definePath({
      pattern,
      fields,
      operations: {
        update: {
          summary: 'Verify a signature.',
          handler: async ({ storage, data }) => {
            const key = await keyOf(d, storage, data.name);
            const match = /^vault:v1:([A-Za-z0-9+/]*={0,2})$/.exec(data.signature);
            if (!match) throw new InvalidRequestError('invalid value for "signature": expected vault:v1:<base64>');
            const valid = verifySignature(await key.publicKey(), inputOf(data), Buffer.from(match[1] ?? '', 'base64'), {
              hash: hashOf(data),
              usePss: await isPss(key, data),
            });
            return { data: { valid } };
          },
        },
      },
      help: { synopsis: 'Verify a signature.', description: 'Answers valid true or false.' },
    }),
  );
}
