import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { heldKeyOf } from './key-creation.js';
import { privateKeyOf, publicKeyOf } from './key-objects.js';
import type { HeldTransitKey } from './key-store.js';
import { versionOf } from './key-store.js';
import type { KeyVersion } from './key-types.js';
import { capabilities, specOf } from './key-types.js';

const EXPORT_TYPES = new Set(['encryption-key', 'signing-key', 'hmac-key', 'public-key']);

/** One version's key in the established export encoding of `exportType`. */
function exported(entry: HeldTransitKey, version: KeyVersion, exportType: string): string {
  const { kind } = specOf(entry.type);
  if (exportType === 'hmac-key') return version.hmac_key;
  if (kind === 'aead' || kind === 'hmac') return version.key;
  if (exportType === 'public-key') {
    const publicKey = publicKeyOf(version);
    if (kind === 'ed25519')
      return Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('base64');
    return publicKey.export({ format: 'pem', type: 'spki' }).toString();
  }
  const privateKey = privateKeyOf(version);
  if (kind === 'rsa') return privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
  if (kind === 'ecdsa') return privateKey.export({ format: 'pem', type: 'sec1' }).toString();
  // ed25519: the 64 bytes Go calls a private key, seed then public key.
  const jwk = privateKey.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from(jwk.d ?? '', 'base64url'), Buffer.from(jwk.x ?? '', 'base64url')]).toString(
    'base64',
  );
}

function checkExportable(entry: HeldTransitKey, exportType: string): void {
  if (!EXPORT_TYPES.has(exportType)) throw new InvalidRequestError('invalid export type');
  if (!entry.exportable && exportType !== 'public-key')
    throw new InvalidRequestError('private key material is not exportable');
  const can = capabilities(entry.type);
  if (exportType === 'encryption-key' && !can.supports_encryption)
    throw new InvalidRequestError('encryption not supported for the key');
  if ((exportType === 'signing-key' || exportType === 'public-key') && !can.supports_signing)
    throw new InvalidRequestError('signing not supported for the key');
}

/** `export/:type/:name(/:version)`: key material of an exportable key (public keys of any asymmetric key). */
export function pathExport() {
  const fields = {
    type: field.path({ description: 'encryption-key, signing-key, hmac-key or public-key.' }),
    name: field.path({ description: 'Name of the key.' }),
  };
  const handler = async ({ storage, data }: { storage: Storage; data: { type: string; name: string } }) => {
    const entry = await heldKeyOf(storage, data.name, 'no such key', 'look');
    checkExportable(entry, data.type);
    const requested = (data as { version?: string }).version;
    const keys: Record<string, string> = {};
    if (requested === undefined) {
      for (const [version, v] of Object.entries(entry.versions)) keys[version] = exported(entry, v, data.type);
    } else {
      const version = requested === 'latest' ? entry.latest_version : Number(requested);
      keys[String(version)] = exported(entry, versionOf(entry, version), data.type);
    }
    return { data: { name: data.name, type: entry.type, keys } };
  };
  const operations = { read: { summary: 'Export a key.', handler } };
  const help = {
    synopsis: 'Export a key.',
    description: 'AEAD and HMAC keys as base64; RSA as PKCS#1 PEM, ECDSA as SEC 1 PEM, ed25519 as base64 of 64 bytes.',
  };
  return [
    definePath({ pattern: 'export/:type/:name', fields, operations, help }),
    definePath({
      pattern: 'export/:type/:name/:version',
      fields: { ...fields, version: field.path({ description: 'A version number or "latest".' }) },
      operations,
      help,
    }),
  ];
}
