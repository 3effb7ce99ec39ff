import { encodeJson, getJson, putJson, type Storage, type StorageOperation } from '../../logical/storage.js';
import { listAllNames } from './role-name.js';

/** A library set (check-out set), under `library/<name>`. Field names keep the API's spelling. */
export interface LibrarySet {
  /** Login names of the accounts (found by `userattr` under `userdn`), in the order check-out tries them. */
  service_account_names: string[];
  /** Seconds a check-out lasts (0: the mount's default). */
  ttl: number;
  /** Seconds a check-out may last with its renewals, from check-out (0: the mount's maximum). */
  max_ttl: number;
  disable_check_in_enforcement: boolean;
}

/**
 * The state of one account of a set, under `checkout/<account>`: an account belongs to one set
 * only, so its name is its key (as established).
 */
export interface AccountState {
  /** The set the account belongs to. */
  set: string;
  is_available: boolean;
  /** The password the directory has (set at the last check-in). */
  password: string;
  /**
   * Write-ahead: the password a check-in is setting, saved before the directory changes and
   * dropped once `password` holds it. A check-in after a crash in between sets the same one again.
   */
  pending_password?: string;
  /** While checked out: the check-out's id (kept with its lease, so an old lease cannot check in a new borrower). */
  checkout_id?: string;
  borrower_entity_id?: string;
  /** Accessor of the borrower's token (backends never see a token itself). */
  borrower_accessor?: string;
  /** Unix ms of the check-out: `max_ttl` counts from it. */
  checked_out_ms?: number;
}

const SET = 'library/';
const ACCOUNT = 'checkout/';

export const librarySets = {
  get: (s: Storage, name: string) => getJson<LibrarySet>(s, SET + name),
  put: (s: Storage, name: string, set: LibrarySet) => putJson(s, SET + name, set),
  /** One level: names and folders (`team/`) under `prefix` ('' for the top). */
  list: (s: Storage, prefix = '') => s.list(SET + prefix),
  /** Every set's full name, at any depth. */
  listAll: (s: Storage) => listAllNames((prefix) => s.list(SET + prefix)),
  putOp: (name: string, set: LibrarySet): StorageOperation => ({ op: 'put', key: SET + name, value: encodeJson(set) }),
  deleteOp: (name: string): StorageOperation => ({ op: 'delete', key: SET + name }),
};

export const accounts = {
  get: (s: Storage, account: string) => getJson<AccountState>(s, ACCOUNT + account),
  put: (s: Storage, account: string, state: AccountState) => putJson(s, ACCOUNT + account, state),
  putOp: (account: string, state: AccountState): StorageOperation => ({
    op: 'put',
    key: ACCOUNT + account,
    value: encodeJson(state),
  }),
  deleteOp: (account: string): StorageOperation => ({ op: 'delete', key: ACCOUNT + account }),
};
