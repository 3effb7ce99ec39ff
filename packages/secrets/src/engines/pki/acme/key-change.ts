import { flattenedVerify, importJWK, type JWK } from 'jose';
import type { Storage } from '../../../logical/storage.js';
import { type AcmeAccount, acmeStore } from './acme-store.js';
import { AcmeProblem, thumbprintOf } from './jws.js';

/**
 * Rolls an account over to a new key (RFC 8555 7.3.5): the inner JWS, signed by the new key,
 * names the account and its old key, for the same URL as the outer one.
 */
export async function changeAccountKey(
  storage: Storage,
  account: AcmeAccount,
  inner: unknown,
  url: string,
  accountUrl: string,
) {
  const jws = inner as { protected?: string; payload?: string; signature?: string } | undefined;
  if (!jws?.protected || !jws.payload || !jws.signature)
    throw new AcmeProblem('malformed', 'the payload must be the inner JWS');
  let header: { alg?: string; jwk?: JWK; url?: string; nonce?: string };
  try {
    header = JSON.parse(Buffer.from(jws.protected, 'base64url').toString());
  } catch {
    throw new AcmeProblem('malformed', 'the inner header is not JSON');
  }
  if (!header.jwk || !header.alg || header.url !== url || header.nonce !== undefined)
    throw new AcmeProblem('malformed', 'the inner JWS needs jwk, alg and the same url, and no nonce');
  let payload: { account?: string; oldKey?: JWK };
  try {
    await flattenedVerify(
      { protected: jws.protected, payload: jws.payload, signature: jws.signature },
      await importJWK(header.jwk, header.alg),
    );
    payload = JSON.parse(Buffer.from(jws.payload, 'base64url').toString());
  } catch {
    throw new AcmeProblem('malformed', 'the inner JWS does not verify with its key');
  }
  if (payload.account !== accountUrl) throw new AcmeProblem('malformed', 'the inner JWS names another account');
  if (!payload.oldKey || (await thumbprintOf(payload.oldKey)) !== account.thumbprint)
    throw new AcmeProblem('malformed', 'oldKey is not the account key');
  const thumbprint = await thumbprintOf(header.jwk);
  const taken = await acmeStore.accountByThumbprint(storage, thumbprint);
  if (taken && taken.id !== account.id)
    throw new AcmeProblem('malformed', 'the new key belongs to another account', 409);
  await storage.delete(`acme/thumbprints/${account.thumbprint}`);
  account.jwk = header.jwk as Record<string, unknown>;
  account.thumbprint = thumbprint;
  await acmeStore.putAccount(storage, account);
  await acmeStore.putThumbprint(storage, thumbprint, account.id);
}
