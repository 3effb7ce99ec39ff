import { createPublicKey, type JsonWebKey as NodeJsonWebKey, X509Certificate } from 'node:crypto';
import { randomUuid } from '@ward/base';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { resolveIssuer } from '../issuers.js';
import { csrNames, issueLeaf } from '../leaf.js';
import { pkiStore } from '../pki-store.js';
import { revokeSerial } from '../revocation.js';
import { DEFAULT_ROLE, type RoleRecord, roleStore } from '../role-store.js';
import { parseCsr, pemOf } from '../x509.js';
import { newAuthorization, parseIdentifier } from './acme-authz.js';
import { type AcmeOrder, acmeStore } from './acme-store.js';
import { AcmeProblem, type VerifiedRequest } from './jws.js';

const ORDER_TTL_MS = 24 * 3600_000;

/** A new order for DNS identifiers (wildcards included), each with its own authorization (RFC 8555 7.4). */
export async function newOrder(
  d: PkiDeps,
  storage: Storage,
  accountId: string,
  payload: Record<string, unknown> | undefined,
) {
  const identifiers = Array.isArray(payload?.identifiers)
    ? (payload.identifiers as { type?: unknown; value?: unknown }[]).map(parseIdentifier)
    : [];
  if (identifiers.length === 0) throw new AcmeProblem('malformed', 'an order needs identifiers');
  if (payload?.notBefore !== undefined || payload?.notAfter !== undefined)
    throw new AcmeProblem('malformed', 'NotBefore and NotAfter are not supported');
  const expires = new Date(d.clock.now() + ORDER_TTL_MS).toISOString();
  const order: AcmeOrder = {
    id: randomUuid(d.random),
    account_id: accountId,
    status: 'pending',
    expires,
    identifiers: [],
    authorization_ids: [],
  };
  for (const identifier of identifiers) {
    const authz = newAuthorization(d, accountId, identifier, expires);
    await acmeStore.putAuthz(storage, authz);
    order.identifiers.push({ type: 'dns', value: identifier.value });
    order.authorization_ids.push(authz.id);
  }
  await acmeStore.putOrder(storage, order);
  return order;
}

/** An order as the account sees it: `ready` once every authorization is valid. */
export async function refreshedOrder(storage: Storage, order: AcmeOrder): Promise<AcmeOrder> {
  if (order.status !== 'pending') return order;
  const authzs = await Promise.all(order.authorization_ids.map((id) => acmeStore.authz(storage, id)));
  if (authzs.some((a) => a?.status === 'invalid')) order.status = 'invalid';
  else if (authzs.every((a) => a?.status === 'valid')) order.status = 'ready';
  else return order;
  await acmeStore.putOrder(storage, order);
  return order;
}

async function directoryRole(storage: Storage): Promise<RoleRecord> {
  const { default_directory_policy: policy } = await acmeStore.config(storage);
  if (policy.startsWith('role:')) {
    const role = await roleStore.get(storage, policy.slice(5));
    if (!role) throw new AcmeProblem('serverInternal', `the directory's role ${policy.slice(5)} does not exist`, 500);
    return { ...role, generate_lease: false };
  }
  return {
    ...DEFAULT_ROLE,
    allow_any_name: true,
    enforce_hostnames: false,
    key_type: 'any',
    generate_lease: false,
    no_store: false,
  };
}

/** Finalizes a ready order with its CSR (base64url DER): every name must be one of the order's identifiers. */
export async function finalizeOrder(
  d: PkiDeps,
  storage: Storage,
  order: AcmeOrder,
  payload: Record<string, unknown> | undefined,
) {
  if (order.status !== 'ready') throw new AcmeProblem('orderNotReady', `the order is ${order.status}`, 403);
  const csrText = typeof payload?.csr === 'string' ? payload.csr : '';
  const csr = await parseCsr(pemOf(Buffer.from(csrText, 'base64url'), 'CERTIFICATE REQUEST')).catch(() => {
    throw new AcmeProblem('badCSR', 'the CSR does not parse or verify');
  });
  const names = csrNames(csr);
  const wanted = new Set(order.identifiers.map((i) => i.value));
  const asked = new Set([
    ...(names.commonName ? [names.commonName.toLowerCase()] : []),
    ...names.dns.map((n) => n.toLowerCase()),
  ]);
  if (names.ips.length > 0 || asked.size !== wanted.size || [...asked].some((n) => !wanted.has(n)))
    throw new AcmeProblem('badCSR', 'the CSR must name exactly the order’s identifiers');
  const role = await directoryRole(storage);
  const issuer = await resolveIssuer(storage, role.issuer_ref);
  const issued = await issueLeaf(d, storage, issuer, role, {
    commonName: names.commonName || (order.identifiers[0]?.value ?? ''),
    altNames: [...wanted],
    ipSans: [],
    uriSans: [],
    otherSans: [],
    ttl: 0,
    notAfter: '',
    excludeCnFromSans: false,
    format: 'pem',
    privateKeyFormat: 'der',
    publicKey: csr.publicKey,
  });
  const data = issued.data as { certificate: string; ca_chain: string[]; serial_number: string };
  order.certificate = [data.certificate, ...data.ca_chain].join('\n');
  await acmeStore.putCertOwner(storage, data.serial_number.replaceAll(':', ''), order.account_id);
  order.status = 'valid';
  await acmeStore.putOrder(storage, order);
  return order;
}

/**
 * Revokes a certificate (RFC 8555 7.6) for the account it was issued to, or for whoever signs with
 * the certificate's own key (`jwk` is then that key).
 */
export async function revokeCertificate(d: PkiDeps, storage: Storage, jws: VerifiedRequest) {
  const der =
    typeof jws.payload?.certificate === 'string' ? Buffer.from(jws.payload.certificate, 'base64url') : undefined;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der ?? Buffer.alloc(0));
  } catch {
    throw new AcmeProblem('malformed', 'the certificate does not parse');
  }
  const serialHex = cert.serialNumber.toLowerCase();
  const owner = await acmeStore.certOwner(storage, serialHex);
  if (!owner) throw new AcmeProblem('malformed', 'this server did not issue that certificate through ACME', 404);
  const byAccount = jws.account && jws.account.id === owner.account_id;
  const byKey =
    jws.jwk !== undefined &&
    createPublicKey({ key: jws.jwk as unknown as NodeJsonWebKey, format: 'jwk' })
      .export({ format: 'der', type: 'spki' })
      .equals(cert.publicKey.export({ format: 'der', type: 'spki' }));
  if (!byAccount && !byKey)
    throw new AcmeProblem(
      'unauthorized',
      'neither the issuing account nor the certificate key signed this request',
      403,
    );
  const stored = await pkiStore.cert(storage, serialHex);
  if (stored && stored.revocation_time > 0)
    throw new AcmeProblem('alreadyRevoked', 'the certificate is already revoked');
  await revokeSerial(d, storage, serialHex);
}
