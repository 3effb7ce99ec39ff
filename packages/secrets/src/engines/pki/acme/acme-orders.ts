import { createPublicKey, type JsonWebKey as NodeJsonWebKey } from 'node:crypto';
import { isIP } from 'node:net';
import { CodedError, randomUuid } from '@ward/base';
import { isTemplate } from '../../../logical/identity-template.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { csrNames, issueLeaf } from '../leaf.js';
import { isNameAllowed } from '../names.js';
import type { RoleRecord } from '../role-store.js';
import { parseCsr, pemOf } from '../x509.js';
import { canonicalIp, newAuthorization, parseIdentifier } from './acme-authz.js';
import type { AcmeDirectory } from './acme-directory.js';
import { type AcmeOrder, acmeStore } from './acme-store.js';
import { AcmeProblem } from './jws.js';

const ORDER_TTL_MS = 24 * 3600_000;
/** The longest an ACME certificate lives, as established. */
const MAX_CERT_TTL_SECONDS = 90 * 86400;

/** The role's names check without an entity: an ACME client has none, so templated domains allow nothing. */
function withoutTemplates(role: RoleRecord): RoleRecord {
  if (!role.allowed_domains_template) return role;
  return { ...role, allowed_domains: role.allowed_domains.filter((domain) => !isTemplate(domain)) };
}

/**
 * A new order for DNS identifiers (wildcards included), each with its own authorization
 * (RFC 8555 7.4); the directory's role must allow every name, as established.
 */
export async function newOrder(
  d: PkiDeps,
  storage: Storage,
  dir: AcmeDirectory,
  accountId: string,
  payload: Record<string, unknown> | undefined,
) {
  const identifiers = Array.isArray(payload?.identifiers)
    ? (payload.identifiers as { type?: unknown; value?: unknown }[]).map(parseIdentifier)
    : [];
  if (identifiers.length === 0) throw new AcmeProblem('malformed', 'an order needs identifiers');
  if (payload?.notBefore !== undefined || payload?.notAfter !== undefined)
    throw new AcmeProblem('malformed', 'NotBefore and NotAfter are not supported');
  const role = withoutTemplates(dir.role);
  for (const { type, value } of identifiers) {
    if (type === 'ip' && !role.allow_ip_sans)
      throw new AcmeProblem(
        'rejectedIdentifier',
        `role (${dir.roleName}) does not allow IP sans, so cannot issue certificate for ${value}`,
      );
    if (type === 'dns' && !isNameAllowed(role, value))
      throw new AcmeProblem(
        'rejectedIdentifier',
        `role (${dir.roleName}) will not issue certificate for name ${value}`,
      );
  }
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
    order.identifiers.push({ type: identifier.type, value: identifier.value });
    order.authorization_ids.push(authz.id);
  }
  await acmeStore.putOrder(storage, order);
  await acmeStore.putAccountOrder(storage, accountId, order.id);
  return order;
}

/**
 * An order as the account sees it: `ready` once every authorization is valid, `invalid` once one
 * ends otherwise (invalid or deactivated, RFC 8555 7.1.6).
 */
export async function refreshedOrder(storage: Storage, order: AcmeOrder): Promise<AcmeOrder> {
  if (order.status !== 'pending') return order;
  const authzs = await Promise.all(order.authorization_ids.map((id) => acmeStore.authz(storage, id)));
  if (authzs.some((a) => !a || (a.status !== 'pending' && a.status !== 'valid'))) order.status = 'invalid';
  else if (authzs.every((a) => a?.status === 'valid')) order.status = 'ready';
  else return order;
  await acmeStore.putOrder(storage, order);
  return order;
}

/** The CSR of a finalize request, checked: it parses, its key is not the account's, its type suits the role. */
async function orderCsr(payload: Record<string, unknown> | undefined, role: RoleRecord, accountJwk: object) {
  const csrText = typeof payload?.csr === 'string' ? payload.csr : '';
  const csr = await parseCsr(pemOf(Buffer.from(csrText, 'base64url'), 'CERTIFICATE REQUEST')).catch(() => {
    throw new AcmeProblem('badCSR', 'the CSR does not parse or verify');
  });
  const accountKey = createPublicKey({ key: accountJwk as NodeJsonWebKey, format: 'jwk' });
  if (Buffer.from(csr.publicKey.rawData).equals(accountKey.export({ format: 'der', type: 'spki' })))
    throw new AcmeProblem('badCSR', 'certificate public key must not match account key');
  if (role.key_type !== 'any') {
    const algorithm = csr.publicKey.algorithm.name;
    const type = algorithm === 'ECDSA' ? 'ec' : algorithm === 'Ed25519' ? 'ed25519' : 'rsa';
    if (type !== role.key_type)
      throw new AcmeProblem('badCSR', `refusing to sign CSR: role requires keys of type ${role.key_type}`);
  }
  return csr;
}

/**
 * The order's DNS names and IP addresses, once the CSR is found to name exactly those (as
 * established, a common name that is an IP address names an IP identifier); else `badCSR`.
 */
function orderNamesOf(names: ReturnType<typeof csrNames>, order: AcmeOrder) {
  const cn = names.commonName.toLowerCase();
  const askedDns = new Set([...(cn && isIP(cn) === 0 ? [cn] : []), ...names.dns.map((n) => n.toLowerCase())]);
  const askedIps = new Set([...(cn && isIP(cn) !== 0 ? [cn] : []), ...names.ips].map(canonicalIp));
  const wantedDns = order.identifiers.filter((i) => i.type === 'dns').map((i) => i.value);
  const wantedIps = order.identifiers.filter((i) => i.type === 'ip').map((i) => i.value);
  const same = (asked: Set<string>, wanted: string[]) =>
    asked.size === new Set(wanted).size && wanted.every((n) => asked.has(n));
  if (names.uris.length > 0 || !same(askedDns, wantedDns) || !same(askedIps, wantedIps))
    throw new AcmeProblem('badCSR', 'the CSR must name exactly the order’s identifiers');
  return { wantedDns, wantedIps };
}

/**
 * Finalizes a ready order with its CSR (base64url DER): its names must be exactly the order's
 * identifiers; the directory's role and issuer sign it.
 */
export async function finalizeOrder(
  d: PkiDeps,
  storage: Storage,
  dir: AcmeDirectory,
  order: AcmeOrder,
  payload: Record<string, unknown> | undefined,
  accountJwk: object,
) {
  if (order.status !== 'ready') throw new AcmeProblem('orderNotReady', `the order is ${order.status}`, 403);
  const csr = await orderCsr(payload, dir.role, accountJwk);
  const names = csrNames(csr);
  const { wantedDns, wantedIps } = orderNamesOf(names, order);
  // As established, a CSR without a common name gets one of its names: a wildcard, a name, an IP.
  const fallbackCn = wantedDns.find((n) => n.startsWith('*.')) ?? wantedDns[0] ?? wantedIps[0] ?? '';
  // As established, ACME certificates live 90 days at most, and one that would outlive its issuer
  // is cut to the issuer's expiry even where the issuer's leaf_not_after_behavior says err.
  const ttl = Math.min(dir.role.ttl || d.defaultTtlSeconds(), MAX_CERT_TTL_SECONDS);
  const issuer = {
    ...dir.issuer,
    leaf_not_after_behavior:
      dir.issuer.leaf_not_after_behavior === 'err' ? ('truncate' as const) : dir.issuer.leaf_not_after_behavior,
  };
  const issued = await issueLeaf(d, storage, issuer, withoutTemplates(dir.role), {
    commonName: names.commonName || fallbackCn,
    altNames: [...new Set(wantedDns)],
    ipSans: [...new Set(wantedIps)],
    uriSans: [],
    otherSans: [],
    ttl,
    notAfter: '',
    excludeCnFromSans: false,
    format: 'pem',
    privateKeyFormat: 'der',
    publicKey: csr.publicKey,
  }).catch((err: unknown) => {
    if (err instanceof CodedError && !(err instanceof AcmeProblem))
      throw new AcmeProblem('badCSR', `refusing to sign CSR: ${err.message}`);
    throw err;
  });
  const data = issued.data as { certificate: string; ca_chain: string[]; serial_number: string; expiration: number };
  order.certificate = [data.certificate, ...data.ca_chain].join('\n');
  order.cert_serial_number = data.serial_number;
  order.cert_expiry = new Date(data.expiration * 1000).toISOString();
  await acmeStore.putCertOwner(storage, data.serial_number.replaceAll(':', ''), order.account_id);
  order.status = 'valid';
  await acmeStore.putOrder(storage, order);
  return order;
}
