import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { type AcmeAccount, type AcmeOrder, acmeStore } from './acme-store.js';

/** What an ACME tidy did, in `tidy-status`'s established names. */
export interface AcmeTidyCounts {
  acme_orders_deleted_count: number;
  acme_account_revoked_count: number;
  acme_account_deleted_count: number;
  total_acme_account_count: number;
}

const msOf = (iso: string | undefined) => (iso ? Date.parse(iso) : 0);

/** Deletes an order with its authorizations, their queued validations and its certificate's owner record. */
async function deleteOrder(storage: Storage, accountId: string, order: AcmeOrder): Promise<void> {
  for (const id of order.authorization_ids) {
    const authz = await acmeStore.authz(storage, id);
    for (const challenge of authz?.challenges ?? []) await storage.delete(`acme/validations/${id}-${challenge.type}`);
    await storage.delete(`acme/authz/${id}`);
  }
  if (order.cert_serial_number) await storage.delete(`acme/certs/${order.cert_serial_number.replaceAll(':', '')}`);
  await storage.delete(`acme/orders/${order.id}`);
  await storage.delete(`acme/account-orders/${accountId}/${order.id}`);
}

/**
 * Tidies one account, as established: its orders whose certificate expired `certBufferMs` ago (or,
 * without one, that expired) go; an account with no order left, older than `accountBufferMs` and
 * whose last certificate or order expired longer ago than that, is revoked, and a revoked or
 * deactivated one deleted `accountBufferMs` after.
 */
async function tidyAccount(
  storage: Storage,
  account: AcmeAccount,
  nowMs: number,
  certBufferMs: number,
  accountBufferMs: number,
  counts: AcmeTidyCounts,
): Promise<void> {
  let allTidied = true;
  let maxExpiryMs = msOf(account.max_cert_expiry);
  for (const id of await acmeStore.accountOrderIds(storage, account.id)) {
    const order = await acmeStore.order(storage, id);
    if (!order) {
      await storage.delete(`acme/account-orders/${account.id}/${id}`);
      continue;
    }
    const expiryMs = order.cert_expiry ? msOf(order.cert_expiry) : msOf(order.expires);
    maxExpiryMs = Math.max(maxExpiryMs, expiryMs);
    const due = order.cert_expiry ? nowMs > expiryMs + certBufferMs : nowMs > expiryMs;
    if (!due) {
      allTidied = false;
      continue;
    }
    await deleteOrder(storage, account.id, order);
    counts.acme_orders_deleted_count++;
  }
  const idle =
    allTidied && nowMs > msOf(account.created_time) + accountBufferMs && nowMs > maxExpiryMs + accountBufferMs;
  if (idle && account.status !== 'valid' && nowMs > msOf(account.revoked_time) + accountBufferMs) {
    await storage.delete(`acme/accounts/${account.id}`);
    await storage.delete(`acme/thumbprints/${account.thumbprint}`);
    counts.acme_account_deleted_count++;
    return;
  }
  if (idle && account.status === 'valid') {
    account.status = 'revoked';
    account.revoked_time = new Date(nowMs).toISOString();
    counts.acme_account_revoked_count++;
  } else if (maxExpiryMs === msOf(account.max_cert_expiry)) return;
  if (maxExpiryMs > 0) account.max_cert_expiry = new Date(maxExpiryMs).toISOString();
  await acmeStore.putAccount(storage, account);
}

/** The ACME part of `tidy` (`tidy_acme`): every account of the mount, in every directory. */
export async function tidyAcme(
  d: PkiDeps,
  storage: Storage,
  certBufferSeconds: number,
  accountBufferSeconds: number,
  counts: AcmeTidyCounts,
): Promise<void> {
  const nowMs = d.clock.now();
  for (const id of await acmeStore.accountIds(storage)) {
    const account = await acmeStore.account(storage, id);
    if (!account) continue;
    counts.total_acme_account_count++;
    await d.locks.run(`acme-account/${id}`, () =>
      tidyAccount(storage, account, nowMs, certBufferSeconds * 1000, accountBufferSeconds * 1000, counts),
    );
  }
}
