import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { runChallenge } from './acme-authz.js';
import type { AcmeEndpoint } from './acme-endpoint.js';
import { needAccount } from './acme-endpoint.js';
import { finalizeOrder, newOrder, refreshedOrder } from './acme-orders.js';
import { authzView, orderView } from './acme-reply.js';
import { acmeStore } from './acme-store.js';
import type { ValidationQueue } from './acme-validation.js';
import { AcmeProblem, type VerifiedRequest } from './jws.js';

async function ownOrder(storage: Storage, jws: VerifiedRequest, id: string) {
  const order = await acmeStore.order(storage, id);
  if (!order || order.account_id !== needAccount(jws).id) throw new AcmeProblem('malformed', 'no such order', 404);
  return refreshedOrder(storage, order);
}

/**
 * `new-order`, the account's orders (`orders` as established, and `account/:kid/orders`, the URL its
 * account object gives), `order/:order_id[/finalize|/cert]`, `authorization/:auth_id` (read, or
 * deactivate), `challenge/…` (RFC 8555 7.1.2.1, 7.4, 7.5).
 */
export function orderEndpoints(d: PkiDeps, queue: ValidationQueue): AcmeEndpoint[] {
  return [
    {
      pattern: 'new-order',
      captures: [],
      handle: async ({ storage, dir, jws }) => {
        const order = await newOrder(d, storage, dir, needAccount(jws).id, jws.payload);
        const headers = { Location: `${dir.base}/order/${order.id}` };
        return { status: 201, body: orderView(dir.base, order), headers };
      },
    },
    ...['orders', 'account/:kid/orders'].map(
      (pattern): AcmeEndpoint => ({
        pattern,
        captures: pattern.includes(':kid') ? ['kid'] : [],
        handle: async ({ storage, dir, jws, ids }) => {
          const account = needAccount(jws);
          if (ids.kid !== undefined && ids.kid !== account.id)
            throw new AcmeProblem('unauthorized', 'not this account', 401);
          const orders: string[] = [];
          for (const id of await acmeStore.accountOrderIds(storage, account.id)) {
            const order = await acmeStore.order(storage, id);
            // RFC 8555 7.1.2.1: invalid orders are left out.
            if (order && (await refreshedOrder(storage, order)).status !== 'invalid')
              orders.push(`${dir.base}/order/${id}`);
          }
          return { status: 200, body: { orders } };
        },
      }),
    ),
    {
      pattern: 'order/:order_id',
      captures: ['order_id'],
      handle: async ({ storage, dir, jws, ids }) => ({
        status: 200,
        body: orderView(dir.base, await ownOrder(storage, jws, ids.order_id ?? '')),
      }),
    },
    {
      pattern: 'order/:order_id/finalize',
      captures: ['order_id'],
      handle: async ({ storage, dir, jws, ids }) => {
        const pending = await ownOrder(storage, jws, ids.order_id ?? '');
        const order = await finalizeOrder(d, storage, dir, pending, jws.payload, needAccount(jws).jwk);
        const headers = { Location: `${dir.base}/order/${order.id}` };
        return { status: 200, body: orderView(dir.base, order), headers };
      },
    },
    {
      pattern: 'order/:order_id/cert',
      captures: ['order_id'],
      handle: async ({ storage, jws, ids }) => {
        const order = await ownOrder(storage, jws, ids.order_id ?? '');
        if (!order.certificate) throw new AcmeProblem('orderNotReady', 'the order has no certificate yet', 403);
        return { status: 200, body: `${order.certificate}\n`, contentType: 'application/pem-certificate-chain' };
      },
    },
    {
      pattern: 'authorization/:auth_id',
      captures: ['auth_id'],
      handle: async ({ storage, dir, jws, ids }) => {
        const authz = await acmeStore.authz(storage, ids.auth_id ?? '');
        if (!authz || authz.account_id !== needAccount(jws).id)
          throw new AcmeProblem('malformed', 'no such authorization', 404);
        if (jws.payload && Object.keys(jws.payload).length > 0) {
          // RFC 8555 7.5.2: the only change a client may ask for is deactivation.
          if (jws.payload.status !== 'deactivated') throw new AcmeProblem('malformed', 'only deactivation is allowed');
          if (authz.status !== 'pending' && authz.status !== 'valid')
            throw new AcmeProblem('malformed', `unable to deactivate authorization in '${authz.status}' status`);
          authz.status = 'deactivated';
          for (const challenge of authz.challenges) challenge.status = 'invalid';
          await acmeStore.putAuthz(storage, authz);
        }
        return { status: 200, body: authzView(dir.base, authz) };
      },
    },
    {
      pattern: 'challenge/:auth_id/:challenge_type',
      captures: ['auth_id', 'challenge_type'],
      handle: async ({ storage, dir, jws, ids }) => {
        const account = needAccount(jws);
        const { authz, challenge } = await runChallenge(
          d,
          storage,
          ids.auth_id ?? '',
          account.id,
          ids.challenge_type ?? '',
          account.jwk,
        );
        if (challenge.status === 'processing') queue.queued();
        const body = {
          type: challenge.type,
          url: `${dir.base}/challenge/${authz.id}/${challenge.type}`,
          token: challenge.token,
          status: challenge.status,
          ...(challenge.error ? { error: challenge.error } : {}),
        };
        return { status: 200, body, headers: { Link: `<${dir.base}/authorization/${authz.id}>;rel="up"` } };
      },
    },
  ];
}
