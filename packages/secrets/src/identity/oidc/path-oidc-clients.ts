import type { Random } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { oidcStore } from './oidc-store.js';
import { rotateKey } from './path-oidc-keys.js';
import type { ProviderDeps } from './provider-deps.js';
import { type ClientRecord, providerStore } from './provider-store.js';

const DAY = 86_400;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` base62 characters, each from one random byte (bytes ≥ 248 are drawn again: no bias). */
export function base62(random: Random, n: number): string {
  let out = '';
  while (out.length < n) for (const b of random.bytes(n)) if (b < 248 && out.length < n) out += BASE62[b % 62];
  return out;
}

/** A named key with key material: a key written without any (the `default` one) gets its first now. */
export async function keyWithMaterial(storage: Storage, name: string, d: Pick<ProviderDeps, 'clock' | 'random'>) {
  const key = await oidcStore.key(storage, name);
  if (!key || key.generations[0]?.private) return key;
  await rotateKey(storage, name, key, d);
  return oidcStore.key(storage, name);
}

const shown = (c: ClientRecord) => ({
  redirect_uris: c.redirect_uris,
  assignments: c.assignments,
  key: c.key,
  id_token_ttl: c.id_token_ttl,
  access_token_ttl: c.access_token_ttl,
  client_id: c.client_id,
  client_type: c.client_type,
});

/** `oidc/client/:name` and LIST `oidc/client`: relying parties, their ids, secrets and assignments. */
export function pathOidcClients(d: ProviderDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/client/',
      fields: {},
      operations: {
        list: {
          summary: 'List the clients, with each one’s settings under key_info.',
          handler: async ({ storage }) => {
            const clients = await providerStore.clients(storage);
            const keyInfo = new Map(clients.map((c) => [c.name, shown(c)]));
            return { data: { keys: clients.map((c) => c.name), key_info: Object.fromEntries(keyInfo) } };
          },
        },
      },
      help: { synopsis: 'List the OIDC clients.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'oidc/client/:name',
      fields: {
        name: field.path({ description: 'Name of the client.' }),
        redirect_uris: field.commaStrings({ description: 'Allowed redirect URIs (exact; any port on loopback).' }),
        assignments: field.commaStrings({ description: 'Assignments that say who may sign in.' }),
        key: field.string({ description: 'The named key that signs ID tokens (default `default`; fixed).' }),
        id_token_ttl: field.durationSeconds({ description: 'Lifetime of ID tokens (24h).' }),
        access_token_ttl: field.durationSeconds({ description: 'Lifetime of access tokens (24h).' }),
        client_type: field.string({ description: '`confidential` (default; has a secret) or `public` (PKCE).' }),
      },
      existenceCheck: async ({ storage, data }) => (await providerStore.client(storage, data.name)) !== undefined,
      operations: {
        update: {
          summary: 'Create or update the client.',
          handler: async ({ storage, data, supplied }) => {
            await d.ensureDefaults(storage);
            const current = await providerStore.client(storage, data.name);
            const next = merged(data, supplied, current);
            for (const a of next.assignments)
              if (!(await providerStore.assignment(storage, a)))
                throw new InvalidRequestError(`assignment "${a}" does not exist`);
            if (current && supplied.has('key') && data.key !== current.key)
              throw new InvalidRequestError('key modification is not allowed');
            if (current && supplied.has('client_type') && data.client_type !== current.client_type)
              throw new InvalidRequestError('client_type modification is not allowed');
            const key = await keyWithMaterial(storage, next.key, d);
            if (!key) throw new InvalidRequestError(`key "${next.key}" does not exist`);
            if (next.id_token_ttl > key.verification_ttl)
              throw new InvalidRequestError(
                "a client's id_token_ttl cannot be greater than the verification_ttl of the key it references",
              );
            if (next.client_id === '') next.client_id = base62(d.random, 32);
            if (next.client_type === 'confidential' && next.client_secret === '')
              next.client_secret = `hvo_secret_${base62(d.random, 64)}`;
            await providerStore.putClient(storage, data.name, next);
            return undefined;
          },
        },
        read: {
          summary: 'Read the client (with its secret when confidential).',
          handler: async ({ storage, data }) => {
            const c = await providerStore.client(storage, data.name);
            if (!c) return undefined;
            return {
              data: { ...shown(c), ...(c.client_type === 'confidential' ? { client_secret: c.client_secret } : {}) },
            };
          },
        },
        delete: {
          summary: 'Delete the client.',
          handler: async ({ storage, data }) => {
            await providerStore.deleteClient(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an OIDC client (relying party).',
        description: 'client_id and (confidential clients) client_secret are generated once and kept.',
      },
    }),
  ];
}

interface ClientInput {
  name: string;
  redirect_uris?: string[];
  assignments?: string[];
  key?: string;
  id_token_ttl?: number;
  access_token_ttl?: number;
  client_type?: string;
}

/** The client as written: each field sent replaces the stored one; a new client takes the defaults. */
function merged(data: ClientInput, supplied: ReadonlySet<string>, current: ClientRecord | undefined): ClientRecord {
  const type = (supplied.has('client_type') ? data.client_type : current?.client_type) || 'confidential';
  if (type !== 'confidential' && type !== 'public') throw new InvalidRequestError(`invalid client_type "${type}"`);
  const pick = <K extends keyof ClientInput & keyof ClientRecord>(k: K, fallback: ClientRecord[K]) =>
    ((supplied.has(k) ? data[k] : current?.[k]) ?? fallback) as ClientRecord[K];
  return {
    name: data.name,
    redirect_uris: [...new Set(pick('redirect_uris', []))],
    assignments: [...new Set(pick('assignments', []))],
    key: pick('key', 'default') || 'default',
    id_token_ttl: supplied.has('id_token_ttl') ? (data.id_token_ttl ?? DAY) : (current?.id_token_ttl ?? DAY),
    access_token_ttl: supplied.has('access_token_ttl')
      ? (data.access_token_ttl ?? DAY)
      : (current?.access_token_ttl ?? DAY),
    client_type: type,
    client_id: current?.client_id ?? '',
    client_secret: current?.client_secret ?? '',
  };
}
