import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomUuid } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../../framework/index.js';
import { NotFoundError } from '../../../logical/errors.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { DIRECTORY_PREFIXES, prefixFields, prefixOf } from './acme-directory.js';
import { type AcmeEab, acmeStore } from './acme-store.js';
import { AcmeProblem, thumbprintOf } from './jws.js';

/** The `new-eab` path of a directory prefix, with its `role`/`issuer_ref` captures. */
function newEabPath(d: PkiDeps, prefix: string): PathDefinition {
  return definePath({
    pattern: `${prefix}/new-eab`,
    fields: prefixFields(prefix),
    operations: {
      update: {
        summary: 'Create an external account binding key for this directory.',
        handler: async ({ storage, req }) => {
          const eab: AcmeEab = {
            id: randomUuid(d.random),
            directory: prefixOf(req.path),
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
              acme_directory: `${eab.directory}directory`,
              directory_url: `${path.replace(/\/+$/, '')}/${eab.directory}directory`,
            },
          };
        },
      },
    },
    help: { synopsis: 'New EAB key.', description: 'Answered once; good for one new account of this directory.' },
  });
}

/**
 * `new-eab` below every ACME directory (a token is needed), LIST `eab`, DELETE `eab/:key_id`: keys
 * that bind new ACME accounts, each of the directory it was made for.
 */
export function pathEab(d: PkiDeps): PathDefinition[] {
  return [
    ...DIRECTORY_PREFIXES.map((prefix) => newEabPath(d, prefix)),
    definePath({
      pattern: 'eab/',
      fields: {},
      operations: {
        list: {
          summary: 'List the unused EAB keys.',
          handler: async ({ storage }) => {
            const keys = await acmeStore.eabIds(storage);
            const key_info: Record<string, unknown> = {};
            for (const id of keys) {
              const eab = await acmeStore.eab(storage, id);
              if (eab)
                key_info[id] = {
                  key_type: 'hs',
                  acme_directory: `${eab.directory ?? 'acme/'}directory`,
                  created_on: eab.created_on,
                };
            }
            return { data: { keys, key_info } };
          },
        },
      },
      help: { synopsis: 'List EAB keys.', description: 'Ids, with each key’s directory and creation time.' },
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
 * key of this `directory` over the account's own JWK, for the new-account URL; the key is then used
 * up. Answers the key's id.
 */
export async function bindExternalAccount(
  storage: Storage,
  binding: unknown,
  accountJwk: Record<string, unknown>,
  url: string,
  directory: string,
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
  // A key binds accounts of the directory it was made for only (as established).
  if ((eab.directory ?? 'acme/') !== directory) throw new AcmeProblem('unauthorized', 'failed to verify eab', 401);
  await acmeStore.deleteEab(storage, eab.id);
  return eab.id;
}
