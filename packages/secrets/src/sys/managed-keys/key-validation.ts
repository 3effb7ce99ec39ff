import { InvalidRequestError } from '../../logical/errors.js';
import type { KeyType, ParamValue } from './key-types.js';

type Params = Record<string, ParamValue>;

const KEY_BITS = new Set([2048, 3072, 4096]);
const CURVES = new Set(['P256', 'P384', 'P521']);
const GAMMA_ALGORITHMS = new Set([
  'EC_SIGN_P256_SHA256',
  'EC_SIGN_P384_SHA384',
  'RSA_SIGN_PSS_2048_SHA256',
  'RSA_SIGN_PSS_3072_SHA256',
  'RSA_SIGN_PSS_4096_SHA256',
  'RSA_SIGN_PSS_4096_SHA512',
  'RSA_SIGN_PKCS1_2048_SHA256',
  'RSA_SIGN_PKCS1_3072_SHA256',
  'RSA_SIGN_PKCS1_4096_SHA256',
  'RSA_SIGN_PKCS1_4096_SHA512',
]);

const missing = (name: string, when = '') => new InvalidRequestError(`missing required field "${name}"${when}`);
const invalid = (name: string, detail: string) => new InvalidRequestError(`invalid value for "${name}": ${detail}`);
const isSet = (v: ParamValue | undefined) => v !== undefined && v !== '' && v !== 0;

function requireAll(p: Params, names: string[]) {
  for (const name of names) if (!isSet(p[name])) throw missing(name);
}

function checkKeyBits(p: Params, required: boolean) {
  if (!isSet(p.key_bits)) {
    if (required) throw missing('key_bits', ' when allow_generate_key is true for an RSA key');
    return;
  }
  if (!KEY_BITS.has(Number(p.key_bits))) throw invalid('key_bits', 'must be 2048, 3072 or 4096');
}

function checkCurve(p: Params, required: boolean) {
  if (!isSet(p.curve)) {
    if (required) throw missing('curve', ' when allow_generate_key is true for an EC key');
    return;
  }
  if (!CURVES.has(String(p.curve))) throw invalid('curve', 'must be P256, P384 or P521');
}

/** PKCS#11 mechanisms of EC keys; the others named in the spec are RSA. */
const EC_MECHANISMS = new Set([0x1041]);

function checkPkcs11(p: Params, libraries: ReadonlyMap<string, string>) {
  requireAll(p, ['library', 'mechanism', 'pin']);
  if (!libraries.has(String(p.library).toLowerCase()))
    throw invalid('library', `no kms_library "pkcs11" stanza named "${p.library}" in the server configuration`);
  if (!isSet(p.key_label) && !isSet(p.key_id)) throw missing('key_label', ' (or key_id)');
  if (!isSet(p.slot) && !isSet(p.token_label)) throw missing('slot', ' (or token_label)');
  if (isSet(p.slot) && isSet(p.token_label)) throw invalid('slot', 'give slot or token_label, not both');
  if (isSet(p.key_id) && !/^(0x)?([0-9a-fA-F]{2})+$/.test(String(p.key_id)))
    throw invalid('key_id', 'must be hexadecimal bytes');
  if (Number(p.max_parallel) < 1) throw invalid('max_parallel', 'must be at least 1');
  const generate = p.allow_generate_key === true;
  if (generate && !isSet(p.key_label)) throw missing('key_label', ' when allow_generate_key is true');
  if (EC_MECHANISMS.has(Number(p.mechanism))) checkCurve(p, generate);
  else checkKeyBits(p, generate);
}

function checkAlpha(p: Params) {
  requireAll(p, ['key_type', 'kms_key']);
  const keyType = String(p.key_type).toUpperCase();
  if (keyType !== 'RSA' && keyType !== 'ECDSA') throw invalid('key_type', 'must be RSA or ECDSA');
  if (keyType === 'RSA') checkKeyBits(p, true);
  else checkCurve(p, p.allow_generate_key === true);
  if (p.allow_generate_key === true && !String(p.kms_key).startsWith('alias/'))
    throw invalid('kms_key', 'must be an alias (alias/…) when allow_generate_key is true');
  if (isSet(p.access_key) !== isSet(p.secret_key))
    throw missing(isSet(p.access_key) ? 'secret_key' : 'access_key', ' (give both or neither)');
}

function checkBeta(p: Params) {
  requireAll(p, ['tenant_id', 'store_name', 'key_name', 'key_type']);
  if (!/^RSA(-HSM)?$/i.test(String(p.key_type))) throw invalid('key_type', 'only RSA is supported');
  checkKeyBits(p, p.allow_generate_key === true);
  if (isSet(p.client_id) !== isSet(p.client_secret))
    throw missing(isSet(p.client_id) ? 'client_secret' : 'client_id', ' (give both or neither)');
}

function checkGamma(p: Params) {
  requireAll(p, ['crypto_key', 'key_ring', 'project', 'region', 'algorithm']);
  if (!GAMMA_ALGORITHMS.has(String(p.algorithm)))
    throw invalid('algorithm', `must be one of ${[...GAMMA_ALGORITHMS].join(', ')}`);
  if (!/^[1-9][0-9]*$/.test(String(p.crypto_key_version)))
    throw invalid('crypto_key_version', 'must be a version number');
}

/** Refuses a key whose parameters, taken together, are incomplete or contradictory (400 naming the field). */
export function checkParams(type: KeyType, p: Params, libraries: ReadonlyMap<string, string>): void {
  if (type === 'pkcs11') checkPkcs11(p, libraries);
  else if (type === 'alphakms') checkAlpha(p);
  else if (type === 'betakeyvault') checkBeta(p);
  else checkGamma(p);
}
