import { defineCommand } from '../command.js';
import { importTransitKey } from '../transit-import.js';

const DESCRIPTION =
  'KEY is the base64 key material (raw bytes for AES and HMAC keys, PKCS#8 DER for RSA, ECDSA and\n' +
  'ed25519), or @FILE holding it. It is wrapped with an ephemeral AES-256 key (AES-KWP), which is\n' +
  "wrapped with the mount's wrapping_key (RSA-OAEP, SHA-256); the K=V pairs after KEY (type=…,\n" +
  'exportable=…, allow_rotation=…) go to the import endpoint with the ciphertext.';

/** `ward transit import MOUNT/keys/NAME KEY [K=V …]`: brings your own key into a new transit key. */
export const transitImportCommand = defineCommand({
  name: 'transit import',
  summary: 'Import key material into a new transit key, wrapped with the mount wrapping key.',
  usage: 'MOUNT/keys/NAME KEY [K=V ...]',
  example: 'ward transit import transit/keys/byok @key.b64 type=rsa-2048',
  description: DESCRIPTION,
  flags: {},
  args: { min: 2 },
  async run({ args }, ctx) {
    await importTransitKey(ctx, 'import', args);
    return undefined;
  },
});

/** `ward transit import-version MOUNT/keys/NAME KEY [K=V …]`: a new version of an imported key. */
export const transitImportVersionCommand = defineCommand({
  name: 'transit import-version',
  summary: 'Import key material as a new version of an imported transit key.',
  usage: 'MOUNT/keys/NAME KEY [K=V ...]',
  example: 'ward transit import-version transit/keys/byok @key-v2.b64',
  description: DESCRIPTION,
  flags: {},
  args: { min: 2 },
  async run({ args }, ctx) {
    await importTransitKey(ctx, 'import_version', args);
    return undefined;
  },
});
