import { definePath, type Fields, field, type PathDefinition } from '../../../framework/index.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { accountEndpoints } from './acme-account-endpoints.js';
import { DIRECTORY_PREFIXES, directoryOf, prefixFields } from './acme-directory.js';
import type { AcmeEndpoint } from './acme-endpoint.js';
import { orderEndpoints } from './acme-order-endpoints.js';
import { acmeReply } from './acme-reply.js';
import type { ValidationQueue } from './acme-validation.js';
import type { NonceStore } from './jws.js';
import { verifyJws } from './jws.js';

const jwsFields = {
  protected: field.string({ description: 'JWS protected header (base64url).' }),
  payload: field.string({ description: 'JWS payload (base64url; empty for POST-as-GET).' }),
  signature: field.string({ description: 'JWS signature (base64url).' }),
};

const capturesOf = (data: unknown) => data as { role?: string; issuer_ref?: string } & Record<string, unknown>;

/**
 * The special-path globs of the ACME protocol paths below every directory: they authenticate by
 * their JWS, so they need no token, as established (`new-eab` does need one).
 */
export const ACME_UNAUTHENTICATED_PATHS = DIRECTORY_PREFIXES.flatMap((prefix) => {
  const glob = prefix.replace(/:[a-z_]+/g, '+');
  return ['directory', 'new-nonce', 'new-account', 'new-order', 'revoke-cert', 'key-change', 'orders']
    .map((p) => `${glob}/${p}`)
    .concat(['account/*', 'order/*', 'authorization/*', 'challenge/*'].map((p) => `${glob}/${p}`));
});

/**
 * The ACME server (RFC 8555) of a PKI mount, with http-01, dns-01 and tls-alpn-01 challenges,
 * under each of the directory prefixes (the default one, per role, per issuer, per both); each
 * directory builds its URLs on its own prefix. `config/acme` enables it.
 */
export function pathAcme(d: PkiDeps, nonces: NonceStore, queue: ValidationQueue): PathDefinition[] {
  const endpoints = [...accountEndpoints(d), ...orderEndpoints(d, queue)];
  return DIRECTORY_PREFIXES.flatMap((prefix) => [
    directoryPath(prefix, nonces),
    noncePath(prefix, nonces),
    ...endpoints.map((endpoint) => signedPath(prefix, endpoint, nonces)),
  ]);
}

function signedPath(prefix: string, endpoint: AcmeEndpoint, nonces: NonceStore): PathDefinition {
  const fields: Fields = { ...jwsFields, ...prefixFields(prefix) };
  for (const name of endpoint.captures) fields[name] = field.path({ description: `The ${name}.` });
  return definePath({
    pattern: `${prefix}/${endpoint.pattern}`,
    fields: fields as typeof jwsFields,
    operations: {
      update: {
        summary: `ACME ${endpoint.pattern}.`,
        handler: async ({ storage, data, req }) =>
          acmeReply(nonces, async () => {
            const dir = await directoryOf(storage, req.path, capturesOf(data));
            const url = `${dir.base}/${req.path.slice(dir.prefix.length)}`;
            const jws = await verifyJws(storage, nonces, data, url, dir);
            const values = capturesOf(data);
            const ids = Object.fromEntries(endpoint.captures.map((n) => [n, String(values[n])]));
            const reply = await endpoint.handle({ storage, dir, jws, ids });
            // RFC 8555 7.1: every answer links its directory.
            const index = `<${dir.base}/directory>;rel="index"`;
            const link = reply.headers?.Link ? `${reply.headers.Link}, ${index}` : index;
            return { ...reply, headers: { ...reply.headers, Link: link } };
          }),
      },
    },
    help: {
      synopsis: `ACME ${endpoint.pattern}.`,
      description: 'RFC 8555; a flattened JWS body (application/jose+json).',
    },
  });
}

function directoryPath(prefix: string, nonces: NonceStore): PathDefinition {
  return definePath({
    pattern: `${prefix}/directory`,
    fields: prefixFields(prefix),
    operations: {
      read: {
        summary: 'The ACME directory.',
        handler: async ({ storage, data, req }) =>
          acmeReply(nonces, async () => {
            const { base, config } = await directoryOf(storage, req.path, capturesOf(data));
            const body = {
              newNonce: `${base}/new-nonce`,
              newAccount: `${base}/new-account`,
              newOrder: `${base}/new-order`,
              revokeCert: `${base}/revoke-cert`,
              keyChange: `${base}/key-change`,
              meta: { externalAccountRequired: config.eab_policy !== 'not-required' },
            };
            return { status: 200, body };
          }),
      },
    },
    help: { synopsis: 'ACME directory.', description: 'Needs config/acme enabled and config/cluster path.' },
  });
}

function noncePath(prefix: string, nonces: NonceStore): PathDefinition {
  const fresh = (storage: Storage, path: string, data: unknown) =>
    acmeReply(nonces, async () => {
      await directoryOf(storage, path, capturesOf(data));
      return { status: 200 };
    });
  return definePath({
    pattern: `${prefix}/new-nonce`,
    fields: prefixFields(prefix),
    operations: {
      read: { summary: 'A fresh nonce.', handler: async ({ storage, data, req }) => fresh(storage, req.path, data) },
      update: { summary: 'A fresh nonce.', handler: async ({ storage, data, req }) => fresh(storage, req.path, data) },
    },
    help: { synopsis: 'ACME nonce.', description: 'In the Replay-Nonce header.' },
  });
}
