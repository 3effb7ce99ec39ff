import { Base32Error, decodeBase32, padKey, upperAscii } from '../../framework/base32.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { parseKeyUrl } from './key-url.js';
import { ALGORITHMS, type Algorithm } from './otp.js';

/** The body of a key write, after field coercion and defaults. */
interface KeyRequest {
  generate: boolean;
  exported: boolean;
  key_size: number;
  key: string;
  issuer: string;
  account_name: string;
  period: number;
  algorithm: string;
  digits: number;
  skew: number;
  qr_size: number;
  url: string;
}

/** Settings every key has, whichever way it was made. */
interface KeySettings {
  issuer: string;
  account_name: string;
  period: number;
  algorithm: Algorithm;
  digits: number;
  skew: number;
}

/** A key write, checked: either generate a secret or store the supplied one. */
export type KeyPlan =
  | { generate: true; settings: KeySettings; keySize: number; exported: boolean; qrSize: number }
  | { generate: false; settings: KeySettings; key: string };

/**
 * Beyond the established rules, which leave these open: a secret longer than any HMAC
 * block gains nothing, and a huge image would exhaust memory.
 */
const MAX_KEY_SIZE = 4096;
const MAX_QR_SIZE = 2048;

const fail = (message: string) => new InvalidRequestError(message);

/**
 * Checks a key write in the established order (first failure wins), with the
 * established messages; all are 400s. See the reference, TOTP §1.2.
 */
export function planKeyWrite(input: KeyRequest): KeyPlan {
  if (input.generate && input.key !== '') throw fail('a key should not be passed if generate is true');
  if (input.generate && input.url !== '') throw fail('a url should not be passed if generate is true');
  const req = input.url === '' ? input : withUrl(input);
  const settings = checkCommon(req);
  if (req.generate) return planGenerated(req, settings);
  return { generate: false, settings, key: checkSuppliedKey(req.key) };
}

/** A URL overrides the body: account name always, the rest when present in it. */
function withUrl(input: KeyRequest): KeyRequest {
  const fromUrl = parseKeyUrl(input.url);
  return {
    ...input,
    account_name: fromUrl.account_name,
    key: fromUrl.key,
    issuer: fromUrl.issuer ?? input.issuer,
    period: fromUrl.period ?? input.period,
    digits: fromUrl.digits ?? input.digits,
    algorithm: fromUrl.algorithm ?? input.algorithm,
  };
}

/** Checks 4–9 of the established order; they apply to generated and supplied keys alike. */
function checkCommon(req: KeyRequest): KeySettings {
  if (req.digits !== 6 && req.digits !== 8) throw fail('the digits value can only be 6 or 8');
  const algorithm = ALGORITHMS.find((a) => a === req.algorithm);
  if (!algorithm) throw fail('the algorithm value is not valid');
  if (req.period <= 0) throw fail('the period value must be greater than zero');
  if (req.skew !== 0 && req.skew !== 1) throw fail('the skew value must be 0 or 1');
  if (req.qr_size < 0) throw fail('the qr_size value must be greater than or equal to zero');
  if (req.key_size <= 0) throw fail('the key_size value must be greater than zero');
  const { issuer, account_name, period, digits, skew } = req;
  return { issuer, account_name, period, algorithm, digits, skew };
}

function planGenerated(req: KeyRequest, settings: KeySettings): KeyPlan {
  if (req.account_name === '') throw fail('the account_name value is required for generated keys');
  if (req.issuer === '') throw fail('the issuer value is required for generated keys');
  if (req.key_size > MAX_KEY_SIZE) throw fail(`the key_size value must be at most ${MAX_KEY_SIZE}`);
  const qrSize = req.exported ? req.qr_size : 0;
  if (qrSize > MAX_QR_SIZE) throw fail(`the qr_size value must be at most ${MAX_QR_SIZE}`);
  return { generate: true, settings, keySize: req.key_size, exported: req.exported, qrSize };
}

/** A supplied key must be base32 once padded and upper-cased; the padded text is stored. */
function checkSuppliedKey(key: string): string {
  if (key === '') throw fail('the key value is required');
  const padded = padKey(key);
  try {
    decodeBase32(upperAscii(padded));
  } catch (err) {
    if (err instanceof Base32Error) throw fail(`invalid key value: ${err.message}`);
    throw err;
  }
  return padded;
}
