import { constants, createCipheriv, createPublicKey, publicEncrypt } from 'node:crypto';
import { cryptoRandom } from '@ward/base';
import { CliError, type CommandContext } from './command.js';
import { UsageError } from './flags.js';
import { parseDataArgs } from './input.js';

/** The alternative initial value of AES key wrap with padding (RFC 5649 §3): OpenSSL wants it given. */
const KWP_AIV = Buffer.from('A65959A6', 'hex');
/** `MOUNT/keys/NAME`, as established: everything before the last `/keys/` is the mount. */
const KEY_PATH = /^(.*)\/keys\/([^/]*)$/;

/**
 * `ward transit import|import-version MOUNT/keys/NAME KEY [K=V …]`, as established: KEY is the
 * base64 key material (or `@file` holding it); an ephemeral AES-256 key wraps it (AES-KWP), the
 * mount's `wrapping_key` (RSA-OAEP, SHA-256) wraps that, and the two go as `ciphertext` to
 * `keys/NAME/import` or `import_version` with the other K=V pairs. The steps are printed as there.
 */
export async function importTransitKey(
  ctx: CommandContext,
  operation: 'import' | 'import_version',
  args: string[],
): Promise<void> {
  const [target = '', keyArg = '', ...rest] = args;
  const parts = KEY_PATH.exec(target);
  if (!parts) throw new UsageError('expected the transit path and key name as MOUNT/keys/NAME');
  const [, mount = '', name = ''] = parts;
  const material = decodeMaterial(keyArg.startsWith('@') ? (await ctx.readFile(keyArg.slice(1))).trim() : keyArg);
  const data = await parseDataArgs(rest, ctx);

  ctx.out.note('Retrieving wrapping key.');
  const wrapping = await ctx.client.read(`${mount}/wrapping_key`);
  const pem = wrapping?.data?.public_key;
  if (typeof pem !== 'string') throw new CliError(`no wrapping key at ${mount}/wrapping_key`, 2);
  const ephemeral = Buffer.from(cryptoRandom.bytes(32));
  ctx.out.note('Wrapping source key with ephemeral key.');
  const kwp = createCipheriv('id-aes256-wrap-pad', ephemeral, KWP_AIV);
  const wrappedKey = Buffer.concat([kwp.update(material), kwp.final()]);
  ctx.out.note('Encrypting ephemeral key with wrapping key.');
  const wrappedAes = publicEncrypt(
    { key: wrappingPublicKey(pem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    ephemeral,
  );
  ctx.out.note('Submitting wrapped key.');
  await ctx.client.write(`${mount}/keys/${name}/${operation}`, {
    ...data,
    ciphertext: Buffer.concat([wrappedAes, wrappedKey]).toString('base64'),
  });
  ctx.out.note('Success!');
}

/** Strict base64: a typo in the material is refused here, not as a wrapped key the server cannot use. */
function decodeMaterial(text: string): Buffer {
  if (text === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new UsageError('the key material must be base64 (or @FILE holding base64)');
  }
  return Buffer.from(text, 'base64');
}

function wrappingPublicKey(pem: string) {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === 'rsa') return key;
  } catch {
    // refused below
  }
  throw new CliError('the wrapping key is not an RSA public key', 2);
}
