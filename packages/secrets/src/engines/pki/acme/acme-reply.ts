import type { LogicalResponse } from '../../../logical/response.js';
import type { AcmeAuthorization, AcmeOrder } from './acme-store.js';
import { AcmeProblem, type NonceStore } from './jws.js';

/** What an ACME handler answers: a status, a JSON (or text) body, headers. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string };

/** Runs an ACME handler: every answer carries a fresh nonce; problems answer as application/problem+json. */
export async function acmeReply(nonces: NonceStore, run: () => Promise<Reply>): Promise<LogicalResponse> {
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

/** An order object (RFC 8555 7.1.3) with the URLs of the directory `base`. */
export const orderView = (base: string, o: AcmeOrder) => ({
  status: o.status,
  expires: o.expires,
  identifiers: o.identifiers,
  authorizations: o.authorization_ids.map((id) => `${base}/authorization/${id}`),
  finalize: `${base}/order/${o.id}/finalize`,
  ...(o.certificate ? { certificate: `${base}/order/${o.id}/cert` } : {}),
});

/** An authorization object (RFC 8555 7.1.4) with the URLs of the directory `base`. */
export const authzView = (base: string, a: AcmeAuthorization) => ({
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
