import type { Clock, Random } from '@ward/base';
import { exportJWK, generateKeyPair } from 'jose';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type NamedKey, oidcStore } from './oidc-store.js';
import { providerStore } from './provider-store.js';

const DAY = 86_400;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A new key generation (node's crypto through jose), its id random. */
async function newGeneration(algorithm: string, random: Random) {
  const { publicKey, privateKey } = await generateKeyPair(algorithm, { extractable: true });
  const kid = Buffer.from(random.bytes(16)).toString('hex');
  return {
    kid,
    public: { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: 'sig' },
    private: { ...(await exportJWK(privateKey)), kid, alg: algorithm },
  };
}

/**
 * Replaces the signing generation by the published next key, and publishes a new next key: the old
 * one keeps verifying for `verificationTtl` seconds.
 */
export async function rotateKey(
  storage: Storage,
  name: string,
  key: NamedKey,
  d: { clock: Clock; random: Random },
  verificationTtl = key.verification_ttl,
) {
  const now = d.clock.now();
  const kept = key.generations
    .map(({ private: _p, ...g }, i) => (i === 0 ? { ...g, expires_at_ms: now + verificationTtl * 1000 } : g))
    .filter((g) => g.expires_at_ms > now);
  // The published next key signs from now on (a new one when there is none, or its algorithm changed).
  const usable = key.next && key.next.public.alg === key.algorithm ? key.next : undefined;
  const signing = usable ?? (await newGeneration(key.algorithm, d.random));
  await oidcStore.putKey(storage, name, {
    ...key,
    next_rotation_ms: now + key.rotation_period * 1000,
    generations: [{ ...signing, expires_at_ms: Number.MAX_SAFE_INTEGER }, ...kept],
    next: await newGeneration(key.algorithm, d.random),
  });
}

/** `oidc/key/:name`, `oidc/key/:name/rotate` and LIST `oidc/key`. */
export function pathOidcKeys(d: { clock: Clock; random: Random }): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/key/',
      fields: {},
      operations: {
        list: {
          summary: 'List the keys.',
          handler: async ({ storage }) => ({ data: { keys: await oidcStore.keys(storage) } }),
        },
      },
      help: { synopsis: 'List the signing keys.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'oidc/key/:name/rotate',
      fields: {
        name: field.path({ description: 'Key name.' }),
        verification_ttl: field.durationSeconds({ description: 'How long the replaced key still verifies.' }),
      },
      operations: {
        update: {
          summary: 'Rotate the key.',
          handler: async ({ storage, data }) => {
            const key = await oidcStore.key(storage, data.name);
            if (!key) throw new InvalidRequestError(`no named key found at "${data.name}"`);
            await rotateKey(storage, data.name, key, d, data.verification_ttl ?? key.verification_ttl);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Rotate a signing key.',
        description: 'A new key signs from now; the old one verifies for verification_ttl.',
      },
    }),
    definePath({
      pattern: 'oidc/key/:name',
      fields: {
        name: field.path({ description: 'Key name.' }),
        rotation_period: field.durationSeconds({ description: 'How often the key rotates (default 24h).' }),
        verification_ttl: field.durationSeconds({ description: 'How long a replaced key verifies (default 24h).' }),
        allowed_client_ids: field.commaStrings({ description: 'Role client ids that may use the key (`*`: any).' }),
        algorithm: field.string({ description: 'RS256 (default), RS384, RS512, ES256, ES384, ES512 or EdDSA.' }),
      },
      operations: {
        update: {
          summary: 'Create or update the key.',
          handler: async ({ storage, data, supplied }) => {
            const current = await oidcStore.key(storage, data.name);
            const algorithm = (supplied.has('algorithm') ? data.algorithm : current?.algorithm) || 'RS256';
            if (!ALGORITHMS.includes(algorithm))
              throw new InvalidRequestError(`unknown signing algorithm "${algorithm}"`);
            const next: NamedKey = {
              algorithm,
              allowed_client_ids: supplied.has('allowed_client_ids')
                ? (data.allowed_client_ids ?? [])
                : (current?.allowed_client_ids ?? []),
              rotation_period:
                (supplied.has('rotation_period') ? data.rotation_period : current?.rotation_period) || DAY,
              verification_ttl:
                (supplied.has('verification_ttl') ? data.verification_ttl : current?.verification_ttl) || DAY,
              generations: current?.generations ?? [],
              ...(current?.next ? { next: current.next } : {}),
            };
            if (next.rotation_period < 60) throw new InvalidRequestError('rotation_period must be at least one minute');
            // As established: a shorter period brings the next rotation forward, a longer one waits for it.
            const due = d.clock.now() + next.rotation_period * 1000;
            next.next_rotation_ms = Math.min(current?.next_rotation_ms ?? due, due);
            await oidcStore.putKey(storage, data.name, next);
            if (!current || current.algorithm !== algorithm) await rotateKey(storage, data.name, next, d);
            return undefined;
          },
        },
        read: {
          summary: 'Read the key’s settings.',
          handler: async ({ storage, data }) => {
            const key = await oidcStore.key(storage, data.name);
            if (!key) throw new NotFoundError('');
            const { generations: _g, ...shown } = key;
            return { data: shown };
          },
        },
        delete: {
          summary: 'Delete the key (refused while a role uses it).',
          handler: async ({ storage, data }) => {
            for (const role of await oidcStore.roles(storage))
              if ((await oidcStore.role(storage, role))?.key === data.name)
                throw new InvalidRequestError(
                  `unable to delete key "${data.name}" because it is currently referenced by these roles: ${role}`,
                );
            const clients = (await providerStore.clients(storage)).filter((c) => c.key === data.name);
            if (clients.length > 0)
              throw new InvalidRequestError(
                `unable to delete key "${data.name}" because it is currently referenced by these clients: ${clients.map((c) => c.name).join(', ')}`,
              );
            await oidcStore.deleteKey(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a signing key of identity tokens.',
        description: 'Roles name the key their tokens are signed with.',
      },
    }),
  ];
}
