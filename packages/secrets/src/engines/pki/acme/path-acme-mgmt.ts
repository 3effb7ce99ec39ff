import { definePath, field, listPath, type PathDefinition } from '../../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../../logical/errors.js';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { type AcmeAccount, type AcmeOrder, acmeStore } from './acme-store.js';

/** An account as operators see it (`acme/mgmt/account/keyid/:keyid`), in the established names. */
function accountView(account: AcmeAccount) {
  const eab = account.eab_id ? { eab_id: account.eab_id, directory: account.directory ?? 'acme/', key_type: 'hs' } : {};
  return {
    key_id: account.id,
    status: account.status,
    contacts: account.contact,
    created_time: account.created_time ?? '',
    revoked_time: account.revoked_time ?? '',
    directory: account.directory ?? 'acme/',
    eab,
  };
}

const orderView = (o: AcmeOrder) => ({
  order_id: o.id,
  status: o.status,
  identifiers: o.identifiers.map((i) => i.value),
  cert_serial_number: o.cert_serial_number ?? '',
  cert_expiry: o.cert_expiry ?? '',
  order_expiry: o.expires,
});

async function accountOf(storage: Storage, keyid: string): Promise<AcmeAccount> {
  const account = await acmeStore.account(storage, keyid);
  if (!account) throw new NotFoundError(`ACME key id ${keyid} did not exist`);
  return account;
}

/**
 * The ACME accounts for operators (a token is needed): LIST `acme/mgmt/account/keyid`, read one
 * with its orders, or set its status to `revoked` (it may then do nothing more) or back to `valid`.
 */
export function pathAcmeMgmt(d: PkiDeps): PathDefinition[] {
  return [
    listPath('acme/mgmt/account/keyid/', (storage) => acmeStore.accountIds(storage), 'ACME account key ids'),
    definePath({
      pattern: 'acme/mgmt/account/keyid/:keyid',
      fields: {
        keyid: field.path({ description: 'The key identifier of the account.' }),
        status: field.string({ description: 'valid or revoked.' }),
      },
      operations: {
        read: {
          summary: 'Read an ACME account and its orders.',
          handler: async ({ storage, data }) => {
            const account = await accountOf(storage, data.keyid);
            const orders = [];
            for (const id of await acmeStore.accountOrderIds(storage, account.id)) {
              const order = await acmeStore.order(storage, id);
              if (order) orders.push(orderView(order));
            }
            return { data: { ...accountView(account), orders } };
          },
        },
        update: {
          summary: 'Revoke an ACME account, or make it valid again.',
          handler: async ({ storage, data }) => {
            const status = (data.status ?? '').trim().toLowerCase();
            if (status === '') throw new InvalidRequestError('status is required');
            if (status !== 'valid' && status !== 'revoked') throw new InvalidRequestError(`invalid status "${status}"`);
            return d.locks.run(`acme-account/${data.keyid}`, async () => {
              const account = await accountOf(storage, data.keyid);
              if (account.status !== status) {
                account.status = status;
                if (status === 'revoked') account.revoked_time = new Date(d.clock.now()).toISOString();
                else delete account.revoked_time;
                await acmeStore.putAccount(storage, account);
              }
              return { data: accountView(account) };
            });
          },
        },
      },
      help: {
        synopsis: 'An ACME account by key id.',
        description: 'Read it with its orders, or set status to revoked (or valid again).',
      },
    }),
  ];
}
