import type { X509Certificate } from 'node:crypto';

/** The most certificates between a client's certificate and a trusted one. */
const MAX_DEPTH = 8;
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EKU = '2.5.29.37.0';

const isCurrent = (cert: X509Certificate, nowMs: number) =>
  Date.parse(cert.validFrom) <= nowMs && nowMs <= Date.parse(cert.validTo);

/** Whether `child` names `issuer` as its issuer and carries its signature (both checked by node's crypto). */
const isIssuedBy = (child: X509Certificate, issuer: X509Certificate) =>
  child.checkIssued(issuer) && child.verify(issuer.publicKey);

/**
 * The chain from the client's certificate `leaf` up to `trusted` (a CA certificate), through the
 * intermediates the client sent (which must be CAs); every certificate valid at `nowMs`.
 * `undefined` when there is none. The leaf must allow client authentication when it limits its use.
 */
export function chainTo(
  leaf: X509Certificate,
  intermediates: X509Certificate[],
  trusted: X509Certificate,
  nowMs: number,
): X509Certificate[] | undefined {
  if (!isCurrent(leaf, nowMs) || !allowsClientAuth(leaf)) return undefined;
  if (!trusted.ca || !isCurrent(trusted, nowMs)) return undefined;
  const chain = [leaf];
  let current = leaf;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (isIssuedBy(current, trusted)) return [...chain, trusted];
    const next = intermediates.find((i) => i.ca && !chain.includes(i) && isCurrent(i, nowMs) && isIssuedBy(current, i));
    if (!next) return undefined;
    chain.push(next);
    current = next;
  }
  return undefined;
}

/**
 * A pinned (non-CA) trusted certificate matches only itself. As established, its validity dates
 * are not checked: trusting the exact certificate is the operator's decision (delete it to stop).
 */
export function isPinnedMatch(leaf: X509Certificate, trusted: X509Certificate): boolean {
  return !trusted.ca && leaf.raw.equals(trusted.raw) && allowsClientAuth(leaf);
}

function allowsClientAuth(cert: X509Certificate): boolean {
  const usages = (cert as X509Certificate & { keyUsage?: string[] }).keyUsage;
  return !usages || usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_EKU);
}
