import { randomUuid } from '@ward/base';
import { definePath, field, type PathDefinition } from '../../../framework/index.js';
import type { LogicalResponse } from '../../../logical/response.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { runChallenge } from './acme-authz.js';
import { finalizeOrder, newOrder, refreshedOrder, revokeCertificate } from './acme-orders.js';
import { type AcmeAuthorization, type AcmeOrder, acmeStore } from './acme-store.js';
import { bindExternalAccount } from './eab.js';
import { AcmeProblem, type NonceStore, thumbprintOf, type VerifiedRequest, verifyJws } from './jws.js';
import { changeAccountKey } from './key-change.js';

/** The ACME URLs of the mount, from `config/cluster` `path` (as established: required). */
async function baseOf(storage: Storage): Promise<string> {
  const config = await acmeStore.config(storage);
  if (!config.enabled) throw new AcmeProblem('unauthorized', 'ACME is disabled in configuration', 403);
  const { path } = await acmeStore.cluster(storage);
  if (!path)
    throw new AcmeProblem(
      'serverInternal',
      "ACME feature requires local cluster 'path' field configuration to be set",
      500,
    );
  return `${path.replace(/\/+$/, '')}/acme`;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string };

/** Runs an ACME handler: every answer carries a fresh nonce; problems answer as application/problem+json. */
async function acme(nonces: NonceStore, run: () => Promise<Reply>): Promise<LogicalResponse> {
  const headers: Record<string, string> = { 'Replay-Nonce': nonces.issue(), 'Cache-Control': 'no-store' };
  try {
    const reply = await run();
    const body =
      typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
    return {
      raw: {
        status: reply.status,
        body,
        contentType: reply.contentType ?? 'application/json',
        headers: { ...headers, ...reply.headers },
      },
    };
  } catch (err) {
    if (!(err instanceof AcmeProblem)) throw err;
    const body = JSON.stringify({ type: `urn:ietf:params:acme:error:${err.type}`, detail: err.message });
    return { raw: { status: err.status, body, contentType: 'application/problem+json', headers } };
  }
}

const orderView = (base: string, o: AcmeOrder) => ({
  status: o.status,
  expires: o.expires,
  identifiers: o.identifiers,
  authorizations: o.authorization_ids.map((id) => `${base}/authorization/${id}`),
  finalize: `${base}/order/${o.id}/finalize`,
  ...(o.certificate ? { certificate: `${base}/order/${o.id}/cert` } : {}),
});
const authzView = (base: string, a: AcmeAuthorization) => ({
  identifier: a.identifier,
  status: a.status,
  expires: a.expires,
  ...(a.wildcard ? { wildcard: true } : {}),
  challenges: a.challenges.map((c) => ({
    type: c.type,
    url: `${base}/challenge/${a.id}/${c.type}`,
    token: c.token,
    status: c.status,
    ...(c.validated ? { validated: c.validated } : {}),
    ...(c.error ? { error: c.error } : {}),
  })),
});

const jwsFields = {
  protected: field.string({ description: 'JWS protected header (base64url).' }),
  payload: field.string({ description: 'JWS payload (base64url; empty for POST-as-GET).' }),
  signature: field.string({ description: 'JWS signature (base64url).' }),
};

/** The ACME server (RFC 8555) of a PKI mount, with http-01 and dns-01 challenges; `config/acme` enables it. */
export function pathAcme(d: PkiDeps, nonces: NonceStore): PathDefinition[] {
  const post = (
    pattern: string,
    captures: string[],
    handle: (c: {
      storage: Storage;
      base: string;
      jws: VerifiedRequest;
      ids: Record<string, string>;
    }) => Promise<Reply>,
  ) => {
    const fields: Record<string, ReturnType<typeof field.path> | (typeof jwsFields)[keyof typeof jwsFields]> = {
      ...jwsFields,
    };
    for (const name of captures) fields[name] = field.path({ description: `The ${name}.` });
    return definePath({
      pattern: `acme/${pattern}`,
      fields: fields as typeof jwsFields,
      operations: {
        update: {
          summary: `ACME ${pattern}.`,
          handler: async ({ storage, data, req }) =>
            acme(nonces, async () => {
              const base = await baseOf(storage);
              const url = `${base}/${req.path.slice('acme/'.length)}`;
              const jws = await verifyJws(storage, nonces, data, url, (id) => `${base}/account/${id}`);
              const ids = Object.fromEntries(captures.map((n) => [n, String((data as Record<string, unknown>)[n])]));
              return handle({ storage, base, jws, ids });
            }),
        },
      },
      help: { synopsis: `ACME ${pattern}.`, description: 'RFC 8555; a flattened JWS body (application/jose+json).' },
    });
  };
  const ownOrder = async (storage: Storage, jws: VerifiedRequest, id: string) => {
    const order = await acmeStore.order(storage, id);
    if (!order || order.account_id !== jws.account?.id) throw new AcmeProblem('malformed', 'no such order', 404);
    return refreshedOrder(storage, order);
  };
  const needAccount = (jws: VerifiedRequest) => {
    if (!jws.account) throw new AcmeProblem('malformed', 'this request must name its account by kid');
    return jws.account;
  };
  const freshNonce = (storage: Storage) =>
    acme(nonces, async () => {
      await baseOf(storage);
      return { status: 200 };
    });
  return [
    definePath({
      pattern: 'acme/directory',
      fields: {},
      operations: {
        read: {
          summary: 'The ACME directory.',
          handler: async ({ storage }) =>
            acme(nonces, async () => {
              const base = await baseOf(storage);
              const body = {
                newNonce: `${base}/new-nonce`,
                newAccount: `${base}/new-account`,
                newOrder: `${base}/new-order`,
                revokeCert: `${base}/revoke-cert`,
                keyChange: `${base}/key-change`,
                meta: { externalAccountRequired: (await acmeStore.config(storage)).eab_policy !== 'not-required' },
              };
              return { status: 200, body };
            }),
        },
      },
      help: { synopsis: 'ACME directory.', description: 'Needs config/acme enabled and config/cluster path.' },
    }),
    definePath({
      pattern: 'acme/new-nonce',
      fields: {},
      operations: {
        read: { summary: 'A fresh nonce.', handler: async ({ storage }) => freshNonce(storage) },
        update: { summary: 'A fresh nonce.', handler: async ({ storage }) => freshNonce(storage) },
      },
      help: { synopsis: 'ACME nonce.', description: 'In the Replay-Nonce header.' },
    }),
    post('new-account', [], async ({ storage, base, jws }) => {
      if (!jws.jwk) throw new AcmeProblem('malformed', 'new-account must carry its jwk');
      const thumbprint = await thumbprintOf(jws.jwk);
      const known = await acmeStore.accountByThumbprint(storage, thumbprint);
      const existing = known ? await acmeStore.account(storage, known.id) : undefined;
      if (existing)
        return {
          status: 200,
          body: { status: existing.status, contact: existing.contact },
          headers: { Location: `${base}/account/${existing.id}` },
        };
      if (jws.payload?.onlyReturnExisting === true)
        throw new AcmeProblem('accountDoesNotExist', 'no account for this key');
      if ((await acmeStore.config(storage)).eab_policy !== 'not-required')
        await bindExternalAccount(
          storage,
          jws.payload?.externalAccountBinding,
          jws.jwk as Record<string, unknown>,
          `${base}/new-account`,
        );
      const contact = Array.isArray(jws.payload?.contact) ? (jws.payload.contact as unknown[]).map(String) : [];
      const account = {
        id: randomUuid(d.random),
        jwk: jws.jwk as Record<string, unknown>,
        thumbprint,
        status: 'valid' as const,
        contact,
      };
      await acmeStore.putAccount(storage, account);
      await acmeStore.putThumbprint(storage, thumbprint, account.id);
      return {
        status: 201,
        body: { status: 'valid', contact },
        headers: { Location: `${base}/account/${account.id}` },
      };
    }),
    post('account/:kid', ['kid'], async ({ storage, jws, ids }) => {
      const account = needAccount(jws);
      if (account.id !== ids.kid) throw new AcmeProblem('unauthorized', 'not this account', 401);
      if (jws.payload?.status === 'deactivated') account.status = 'deactivated';
      if (Array.isArray(jws.payload?.contact)) account.contact = (jws.payload.contact as unknown[]).map(String);
      await acmeStore.putAccount(storage, account);
      return { status: 200, body: { status: account.status, contact: account.contact } };
    }),
    post('revoke-cert', [], async ({ storage, jws }) => {
      await revokeCertificate(d, storage, jws);
      return { status: 200 };
    }),
    post('key-change', [], async ({ storage, base, jws }) => {
      const account = needAccount(jws);
      await changeAccountKey(storage, account, jws.payload, `${base}/key-change`, `${base}/account/${account.id}`);
      return { status: 200, body: { status: account.status, contact: account.contact } };
    }),
    post('new-order', [], async ({ storage, base, jws }) => {
      const order = await newOrder(d, storage, needAccount(jws).id, jws.payload);
      return { status: 201, body: orderView(base, order), headers: { Location: `${base}/order/${order.id}` } };
    }),
    post('order/:order_id', ['order_id'], async ({ storage, base, jws, ids }) => ({
      status: 200,
      body: orderView(base, await ownOrder(storage, jws, ids.order_id ?? '')),
    })),
    post('order/:order_id/finalize', ['order_id'], async ({ storage, base, jws, ids }) => {
      const order = await finalizeOrder(d, storage, await ownOrder(storage, jws, ids.order_id ?? ''), jws.payload);
      return { status: 200, body: orderView(base, order), headers: { Location: `${base}/order/${order.id}` } };
    }),
    post('order/:order_id/cert', ['order_id'], async ({ storage, jws, ids }) => {
      const order = await ownOrder(storage, jws, ids.order_id ?? '');
      if (!order.certificate) throw new AcmeProblem('orderNotReady', 'the order has no certificate yet', 403);
      return { status: 200, body: `${order.certificate}\n`, contentType: 'application/pem-certificate-chain' };
    }),
    post('authorization/:auth_id', ['auth_id'], async ({ storage, base, jws, ids }) => {
      const authz = await acmeStore.authz(storage, ids.auth_id ?? '');
      if (!authz || authz.account_id !== needAccount(jws).id)
        throw new AcmeProblem('malformed', 'no such authorization', 404);
      return { status: 200, body: authzView(base, authz) };
    }),
    post('challenge/:auth_id/:challenge_type', ['auth_id', 'challenge_type'], async ({ storage, base, jws, ids }) => {
      const account = needAccount(jws);
      const authz = await acmeStore.authz(storage, ids.auth_id ?? '');
      if (!authz || authz.account_id !== account.id) throw new AcmeProblem('malformed', 'no such challenge', 404);
      const challenge = await runChallenge(d, storage, authz, ids.challenge_type ?? '', account.jwk);
      const url = `${base}/challenge/${authz.id}/${challenge.type}`;
      const body = {
        type: challenge.type,
        url,
        token: challenge.token,
        status: challenge.status,
        ...(challenge.error ? { error: challenge.error } : {}),
      };
      return { status: 200, body, headers: { Link: `<${base}/authorization/${authz.id}>;rel="up"` } };
    }),
  ];
}
