import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomUuid } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../../framework/index.js';
import { NotFoundError } from '../../../logical/errors.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { acmeStore } from './acme-store.js';
import { AcmeProblem, thumbprintOf } from './jws.js';

/** `acme/new-eab` (a token is needed), LIST `eab`, DELETE `eab/:key_id`: keys that bind new ACME accounts. */
export function pathEab(d: PkiDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'acme/new-eab',
      fields: {},
      operations: {
        update: {
          summary: 'Create an external account binding key.',
          handler: async ({ storage }) => {
            const eab = {
              id: randomUuid(d.random),
              key: Buffer.from(d.random.bytes(32)).toString('base64url'),
              created_on: new Date(d.clock.now()).toISOString(),
            };
            await acmeStore.putEab(storage, eab);
            const { path } = await acmeStore.cluster(storage);
            return {
              data: {
                id: eab.id,
                key_type: 'hs',
                key: eab.key,
                created_on: eab.created_on,
                acme_directory: 'acme/directory',
                directory_url: `${path}/acme/directory`,
              },
            };
          },
        },
      },
      help: { synopsis: 'New EAB key.', description: 'Answered once; good for one new account.' },
    }),
    definePath({
      pattern: 'eab/',
      fields: {},
      operations: {
        list: {
          summary: 'List the unused EAB keys.',
          handler: async ({ storage }) => ({ data: { keys: await acmeStore.eabIds(storage) } }),
        },
      },
      help: { synopsis: 'List EAB keys.', description: 'Ids only.' },
    }),
    definePath({
      pattern: 'eab/:key_id',
      fields: { key_id: field.path({ description: 'The EAB key id.' }) },
      operations: {
        delete: {
          summary: 'Delete an EAB key.',
          handler: async ({ storage, data }) => {
            if (!(await acmeStore.eab(storage, data.key_id))) throw new NotFoundError('');
            await acmeStore.deleteEab(storage, data.key_id);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Delete an EAB key.', description: 'An unused key only.' },
    }),
  ];
}

/**
 * Checks a new account's `externalAccountBinding` (RFC 8555 7.3.4): an HS256 JWS by an unused EAB
 * key over the account's own JWK, for the new-account URL; the key is then used up.
 */
export async function bindExternalAccount(
  storage: Storage,
  binding: unknown,
  accountJwk: Record<string, unknown>,
  url: string,
) {
  const jws = binding as { protected?: string; payload?: string; signature?: string } | undefined;
  if (!jws?.protected || !jws.payload || !jws.signature)
    throw new AcmeProblem('externalAccountRequired', 'an external account binding is required');
  let header: { alg?: string; kid?: string; url?: string };
  try {
    header = JSON.parse(Buffer.from(jws.protected, 'base64url').toString());
  } catch {
    throw new AcmeProblem('malformed', 'the binding header is not JSON');
  }
  const eab = header.kid ? await acmeStore.eab(storage, header.kid) : undefined;
  if (header.alg !== 'HS256' || header.url !== url || !eab)
    throw new AcmeProblem('unauthorized', 'unknown or malformed external account binding', 401);
  const expected = createHmac('sha256', Buffer.from(eab.key, 'base64url'))
    .update(`${jws.protected}.${jws.payload}`)
    .digest();
  const given = Buffer.from(jws.signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AcmeProblem('unauthorized', 'the external account binding does not verify', 401);
  let bound: Record<string, unknown>;
  try {
    bound = JSON.parse(Buffer.from(jws.payload, 'base64url').toString());
  } catch {
    throw new AcmeProblem('malformed', 'the binding payload is not a JWK');
  }
  if ((await thumbprintOf(bound)) !== (await thumbprintOf(accountJwk)))
    throw new AcmeProblem('unauthorized', 'the external account binding is for another key', 401);
  await acmeStore.deleteEab(storage, eab.id);
}
