import { encodeBase32NoPadding } from '../../framework/base32.js';
import { definePath, type FieldSpec, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { TotpDeps } from './deps.js';
import { type KeyPlan, planKeyWrite } from './key-settings.js';
import { keyStore, requireKeyName } from './key-store.js';
import { buildKeyUrl } from './key-url.js';
import { QrTooSmallError, qrPng } from './qr-image.js';

/** `keys/` (LIST): the names of the mount's keys. */
export function pathListKeys() {
  return definePath({
    pattern: 'keys/',
    fields: {},
    operations: {
      list: {
        summary: 'List the names of the keys.',
        handler: async ({ storage }) => {
          const keys = await keyStore.list(storage);
          return { data: { keys } };
        },
      },
    },
    help: { synopsis: 'List the keys.', description: 'Names only, sorted; 404 when the mount has none.' },
  });
}

/** `keys/:name`: create or replace, read the settings of, or delete a key. */
export function pathKeys(d: TotpDeps) {
  return definePath({
    pattern: 'keys/:name',
    fields: keyFields,
    existenceCheck: async ({ storage, data }) => (await keyStore.get(storage, data.name)) !== undefined,
    operations: {
      read: {
        summary: 'Read the settings of a key (never the key itself).',
        handler: async ({ storage, data }) => {
          requireKeyName(data.name);
          const entry = await keyStore.get(storage, data.name);
          if (!entry) throw new NotFoundError('');
          const { issuer, account_name, period, algorithm, digits } = entry;
          return { data: { issuer, account_name, period, algorithm, digits } };
        },
      },
      update: {
        summary: 'Create or replace a key: generate one, or store one supplied as a key or a URL.',
        handler: async ({ storage, data }) => {
          requireKeyName(data.name);
          const plan = planKeyWrite(data);
          if (plan.generate) return writeGenerated(d, storage, data.name, plan);
          await keyStore.put(storage, data.name, { ...plan.settings, key: plan.key });
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a key (no error when there is none).',
        handler: async ({ storage, data }) => {
          requireKeyName(data.name);
          await keyStore.delete(storage, data.name);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Manage the keys codes are made from.',
      description:
        'With generate=true a new random key is made and, when exported, shown once as an otpauth:// URL ' +
        'and a PNG QR code (base64). Otherwise the key is supplied as base32 `key` or as an otpauth:// `url`. ' +
        'A read returns issuer, account_name, period, algorithm and digits; never the key.',
    },
  });
}

/**
 * Makes and stores a new secret. The QR code is drawn before anything is stored, so a
 * size too small for the symbol leaves no key behind.
 */
async function writeGenerated(d: TotpDeps, storage: Storage, name: string, plan: KeyPlan & { generate: true }) {
  const { settings } = plan;
  const secret = encodeBase32NoPadding(d.random.bytes(plan.keySize));
  const url = buildKeyUrl({ ...settings, secret });
  const data: Record<string, string> = { url };
  if (plan.qrSize > 0) data.barcode = drawQr(url, plan.qrSize).toString('base64');
  await keyStore.put(storage, name, { ...settings, key: secret });
  return plan.exported ? { data } : undefined;
}

function drawQr(url: string, size: number): Buffer {
  try {
    return qrPng(url, size);
  } catch (err) {
    // Established servers answer 500 with this text; it is the caller's choice of size, so 400.
    if (err instanceof QrTooSmallError)
      throw new InvalidRequestError(`failed to generate QR code image: ${err.message}`);
    throw err;
  }
}

/** `period` in seconds or as a duration; a negative one parses, so the established rule can refuse it. */
const periodField = field.durationSeconds({
  description: 'Length of a time step, in seconds or as a duration (`30s`).',
  default: 30,
});
const signedPeriod: FieldSpec<number> = {
  ...periodField,
  parse(raw, name) {
    if (typeof raw === 'number' && raw < 0) return -periodField.parse(-raw, name);
    if (typeof raw === 'string' && raw.trim().startsWith('-')) return -periodField.parse(raw.trim().slice(1), name);
    return periodField.parse(raw, name);
  },
};

const keyFields = {
  name: field.path({ description: 'Name of the key.' }),
  generate: field.bool({ description: 'Generate the key here (true) or take a supplied one (false).', default: false }),
  exported: field.bool({
    description: 'With generate: return the otpauth:// URL and QR code. Only then can the key be copied.',
    default: true,
  }),
  key_size: field.int({ description: 'With generate: size of the key in bytes.', default: 20 }),
  key: field.string({ description: 'Without generate: the key in base32 (upper or lower case).', default: '' }),
  url: field.string({
    description: 'Without generate: an otpauth:// URL carrying the key and its settings.',
    default: '',
  }),
  issuer: field.string({ description: 'Issuing organisation; required with generate.', default: '' }),
  account_name: field.string({ description: 'Account the key belongs to; required with generate.', default: '' }),
  period: signedPeriod,
  algorithm: field.string({ description: 'HMAC algorithm: SHA1, SHA256 or SHA512.', default: 'SHA1' }),
  digits: field.int({ description: 'Digits in a code: 6 or 8.', default: 6 }),
  skew: field.int({ description: 'Time steps either side accepted on validation: 0 or 1.', default: 1 }),
  qr_size: field.int({
    description: 'With generate and exported: width and height of the QR code in pixels; 0 for none.',
    default: 200,
  }),
};
