import { createHash } from 'node:crypto';
import type { Random } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import { field } from './fields.js';
import { definePath } from './path.js';
import { HASH_ALGORITHMS, type HashAlgorithm, nodeHashName } from './signatures.js';

// The random and hash utilities the established server offers twice, with the same fields and
// answers: at transit's `random` and `hash`, and at `sys/tools/random` and `sys/tools/hash`.
// One implementation; each backend mounts it under its prefix.

const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const MAX_RANDOM_BYTES = 128 * 1024;
const SOURCES = new Set(['platform', 'seal', 'all']);

/** `hash_algorithm`/`algorithm` as established: one of the SHA-1/2/3 names; 400 otherwise. */
export function hashAlgorithmOf(text: string): HashAlgorithm {
  if (!(HASH_ALGORITHMS as readonly string[]).includes(text))
    throw new InvalidRequestError(`unsupported hash algorithm ${text}`);
  return text as HashAlgorithm;
}

function encodeOutput(bytes: Buffer, format: string): string {
  if (format === 'hex') return bytes.toString('hex');
  if (format === 'base64') return bytes.toString('base64');
  throw new InvalidRequestError(`unsupported encoding format ${format}; must be "hex" or "base64"`);
}

/**
 * `random[/:source][/:bytes]`: random bytes from the server's source (every source is the
 * platform's here: no seal makes randomness).
 */
export function pathRandom(random: Random, prefix = '') {
  const fields = {
    bytes: field.int({ description: 'How many bytes (default 32, at most 131072).', default: 32 }),
    format: field.string({ description: 'base64 (default) or hex.', default: 'base64' }),
    source: field.string({ description: 'platform (default), seal or all.', default: 'platform' }),
  };
  const handler = async ({ data }: { data: { bytes: number; format: string; source: string } } & object) => {
    const a = (data as { first?: string }).first;
    const b = (data as { second?: string }).second;
    const source = a !== undefined && !/^[0-9]+$/.test(a) ? a : data.source;
    const urlBytes = a !== undefined && /^[0-9]+$/.test(a) ? a : b;
    const count = urlBytes !== undefined ? Number.parseInt(urlBytes, 10) : data.bytes;
    if (!SOURCES.has(source)) throw new InvalidRequestError(`unsupported entropy source ${source}`);
    if (!Number.isInteger(count) || count < 1) throw new InvalidRequestError('missing bytes count');
    if (count > MAX_RANDOM_BYTES) throw new InvalidRequestError(`number of bytes exceeds maximum ${MAX_RANDOM_BYTES}`);
    return { data: { random_bytes: encodeOutput(Buffer.from(random.bytes(count)), data.format) } };
  };
  const first = field.path({ description: 'The source, or the number of bytes.' });
  const second = field.path({ description: 'The number of bytes (after the source).' });
  const operations = { update: { summary: 'Generate random bytes.', handler } };
  const help = { synopsis: 'Generate random bytes.', description: 'Answers `random_bytes`.' };
  return [
    definePath({ pattern: `${prefix}random`, fields, operations, help }),
    definePath({ pattern: `${prefix}random/:first`, fields: { ...fields, first }, operations, help }),
    definePath({ pattern: `${prefix}random/:first/:second`, fields: { ...fields, first, second }, operations, help }),
  ];
}

/** `hash[/:urlalgorithm]`: the digest of base64 input, hex or base64. */
export function pathHash(prefix = '') {
  const fields = {
    input: field.string({ description: 'Base64 of the data.', required: true }),
    algorithm: field.string({ description: `One of ${HASH_ALGORITHMS.join(', ')} (default sha2-256).` }),
    format: field.string({ description: 'hex (default) or base64.', default: 'hex' }),
  };
  const urlalgorithm = field.path({ description: 'The algorithm, in the URL instead of the body.' });
  const operations = {
    update: {
      summary: 'Hash data.',
      handler: async ({ data }: { data: { input: string; algorithm?: string; format: string } }) => {
        const url = (data as { urlalgorithm?: string }).urlalgorithm;
        const algorithm = hashAlgorithmOf(url || data.algorithm || 'sha2-256');
        if (data.format !== 'hex' && data.format !== 'base64')
          throw new InvalidRequestError(`unsupported encoding format ${data.format}; must be "hex" or "base64"`);
        if (!STRICT_BASE64.test(data.input)) throw new InvalidRequestError('failed to base64-decode input');
        const sum = createHash(nodeHashName(algorithm)).update(Buffer.from(data.input, 'base64')).digest();
        return { data: { sum: encodeOutput(sum, data.format) } };
      },
    },
  };
  const help = { synopsis: 'Hash data.', description: 'Answers `sum`.' };
  return [
    definePath({ pattern: `${prefix}hash`, fields, operations, help }),
    definePath({ pattern: `${prefix}hash/:urlalgorithm`, fields: { ...fields, urlalgorithm }, operations, help }),
  ];
}
