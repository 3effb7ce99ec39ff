import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { certificateUrlsFor } from './aia.js';
import type { PkiDeps } from './deps.js';
import { allIssuers, signerOf } from './issuers.js';
import { type CrlRecord, type IssuerRecord, pkiStore, serialKey } from './pki-store.js';
import { type CrlEntry, signCrl } from './x509.js';

/** The issuer a stored certificate belongs to (records of earlier releases: the default issuer). */
async function issuerIdOf(storage: Storage, issuerId: string | undefined): Promise<string> {
  return issuerId || (await pkiStore.issuersConfig(storage)).default;
}

/** The revocations of `issuer`, oldest first; those after `sinceMs` only, for a delta CRL. */
async function revokedBy(storage: Storage, issuer: IssuerRecord, sinceMs = 0): Promise<CrlEntry[]> {
  const entries: CrlEntry[] = [];
  for (const serial of await pkiStore.revoked(storage)) {
    const cert = await pkiStore.cert(storage, serial);
    if (!cert || cert.revocation_time === 0) continue;
    if ((await issuerIdOf(storage, cert.issuer_id)) !== issuer.issuer_id) continue;
    if (cert.revocation_time * 1000 < sinceMs) continue;
    entries.push({ serialHex: serialKey(serial), revokedAt: new Date(cert.revocation_time * 1000) });
  }
  return entries.sort((a, b) => a.revokedAt.getTime() - b.revokedAt.getTime());
}

const deltaId = (issuerId: string) => `${issuerId}.delta`;

/**
 * The delta CRL URLs a complete CRL names (Freshest CRL) when delta CRLs are on; a template
 * `config/cluster` cannot fill leaves them out rather than stopping the CRL.
 */
async function freshestOf(storage: Storage, issuer: IssuerRecord): Promise<string[]> {
  try {
    return (await certificateUrlsFor(storage, issuer)).delta_crl_distribution_points ?? [];
  } catch (err) {
    if (err instanceof InvalidRequestError) return [];
    throw err;
  }
}

/**
 * Builds and stores the CRL of `issuer` (and its delta when `config/crl` enables them): each build
 * takes the next CRL number; a disabled CRL is built empty, as established.
 */
export async function rebuildCrl(
  d: PkiDeps,
  storage: Storage,
  issuer: IssuerRecord,
  delta = false,
): Promise<CrlRecord> {
  const config = await pkiStore.crlConfig(storage);
  const full = await pkiStore.crl(storage, issuer.issuer_id);
  const previousDelta = await pkiStore.crl(storage, deltaId(issuer.issuer_id));
  const number = Math.max(full?.number ?? 0, previousDelta?.number ?? 0) + 1;
  const nowMs = d.clock.now();
  const signer = await signerOf(d, storage, issuer);
  if (delta && !full) return rebuildCrl(d, storage, issuer, false);
  const entries = config.disable ? [] : await revokedBy(storage, issuer, delta ? (full?.built_at_ms ?? 0) : 0);
  const nextUpdateMs = nowMs + (delta ? config.delta_rebuild_interval : config.expiry) * 1000;
  const der = await signCrl(signer, entries, {
    number,
    thisUpdate: new Date(nowMs),
    nextUpdate: new Date(nextUpdateMs),
    deltaOf: delta ? full?.number : undefined,
    freshest: !delta && config.enable_delta ? await freshestOf(storage, issuer) : undefined,
  });
  const record: CrlRecord = { der: der.toString('base64'), number, built_at_ms: nowMs, next_update_ms: nextUpdateMs };
  await pkiStore.putCrl(storage, delta ? deltaId(issuer.issuer_id) : issuer.issuer_id, record);
  return record;
}

/** The current CRL (DER) of `issuer`, built when there is none yet or it has expired. */
export async function currentCrl(d: PkiDeps, storage: Storage, issuer: IssuerRecord, delta = false): Promise<Buffer> {
  if (delta && !(await pkiStore.crlConfig(storage)).enable_delta)
    throw new InvalidRequestError('delta CRLs are not enabled (config/crl enable_delta)');
  const stored = await pkiStore.crl(storage, delta ? deltaId(issuer.issuer_id) : issuer.issuer_id);
  const fresh = stored && stored.next_update_ms > d.clock.now() ? stored : await rebuildCrl(d, storage, issuer, delta);
  return Buffer.from(fresh.der, 'base64');
}

/** Rebuilds the CRLs of every issuer that has a key (after a revocation, or on `crl/rotate`). */
export async function rebuildAllCrls(d: PkiDeps, storage: Storage): Promise<void> {
  for (const issuer of await allIssuers(storage)) {
    if (!issuer.key_id) continue;
    await rebuildCrl(d, storage, issuer);
    if ((await pkiStore.crlConfig(storage)).enable_delta) await rebuildCrl(d, storage, issuer, true);
  }
}

/**
 * Marks the stored certificate `serial` revoked (idempotent) and, unless `auto_rebuild` defers it,
 * rebuilds the CRLs; answers its revocation time, or `undefined` when no such certificate is stored.
 */
export async function revokeSerial(d: PkiDeps, storage: Storage, serial: string): Promise<number | undefined> {
  const time = await d.locks.run(`cert/${serialKey(serial)}`, async () => {
    const cert = await pkiStore.cert(storage, serial);
    if (!cert) return undefined;
    if (cert.revocation_time === 0) {
      cert.revocation_time = Math.floor(d.clock.now() / 1000);
      await pkiStore.putCert(storage, serial, cert);
      await pkiStore.markRevoked(storage, serial);
    }
    return cert.revocation_time;
  });
  if (time !== undefined) {
    const config = await pkiStore.crlConfig(storage);
    if (!config.auto_rebuild) await d.locks.run('crl', () => rebuildAllCrls(d, storage));
  }
  return time;
}
