import { definePath, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Caller } from '../../logical/request.js';
import type { Storage } from '../../logical/storage.js';
import { checkInAccount } from './library-check-in.js';
import { type AccountState, accounts, type LibrarySet, librarySets } from './library-store.js';
import { roleName } from './role-name.js';
import { type RotationDeps, requireConfig } from './static-rotation.js';

/** The secret type of a check-out's lease (as established). */
export const CHECKOUT_CREDS = 'checkout-creds';

/** Kept with the lease: which check-out it ends. */
interface CheckoutInternal {
  set_name: string;
  service_account_name: string;
  checkout_id: string;
}

const nameField = field.path({ description: 'Name of the set.', caseInsensitive: true });

async function requireSet(storage: Storage, name: string): Promise<LibrarySet> {
  const set = await librarySets.get(storage, name);
  if (!set) throw new InvalidRequestError(`"${name}" doesn't exist`);
  return set;
}

/**
 * `library/manage/:name/check-in` (forced), `library/:name/check-in`, `library/:name/check-out`
 * and `library/:name/status`. Declared before `library/:name`, which would otherwise take them
 * (names may contain `/`).
 */
export function pathLibraryCheckout(d: RotationDeps): PathDefinition[] {
  return [pathCheckIn(d, true), pathCheckIn(d, false), pathCheckOut(d), pathStatus()];
}

function pathCheckOut(d: RotationDeps): PathDefinition {
  return definePath({
    pattern: 'library/*name/check-out',
    fields: {
      name: nameField,
      ttl: field.durationSeconds({ description: "How long the check-out lasts: at most the set's `ttl`." }),
    },
    operations: {
      update: {
        summary: 'Check out the first available account of the set: its name and password, under a lease.',
        handler: async ({ data, req }) => {
          const name = roleName(data.name);
          return d.setLocks.run(name, async () => {
            const set = await requireSet(d.storage, name);
            for (const account of set.service_account_names) {
              const state = await accounts.get(d.storage, account);
              if (!state?.is_available) continue;
              const checkoutId = Buffer.from(d.random.bytes(16)).toString('hex');
              await accounts.put(d.storage, account, borrowed(state, checkoutId, req.caller, d.clock.now()));
              const internal: CheckoutInternal = {
                set_name: name,
                service_account_name: account,
                checkout_id: checkoutId,
              };
              return {
                secret: {
                  type: CHECKOUT_CREDS,
                  data: { service_account_name: account, password: state.password },
                  internal: { ...internal },
                  ttlSeconds: checkoutTtl(set, data.ttl),
                },
              };
            }
            d.logger.debug('no library account available for check-out', { set: name });
            throw new InvalidRequestError('No service accounts available for check-out.');
          });
        },
      },
    },
    help: {
      synopsis: 'Check a service account out of the library.',
      description:
        'The account stays checked out until it is checked in or its lease ends (expiry, revocation, the ' +
        "revocation of the borrower's token); either rotates its password.",
    },
  });
}

function borrowed(state: AccountState, checkoutId: string, caller: Caller | undefined, nowMs: number): AccountState {
  return {
    set: state.set,
    is_available: false,
    password: state.password,
    checkout_id: checkoutId,
    borrower_entity_id: caller?.entityId ?? '',
    borrower_accessor: caller?.accessor ?? '',
    checked_out_ms: nowMs,
  };
}

/** The set's `ttl`, or the shorter one asked for; capped by `max_ttl`. 0: the mount's default. */
function checkoutTtl(set: LibrarySet, requested: number | undefined): number {
  let ttl = set.ttl;
  if (requested !== undefined && requested > 0 && (ttl <= 0 || requested < ttl)) ttl = requested;
  return set.max_ttl > 0 ? Math.min(ttl || set.max_ttl, set.max_ttl) : ttl;
}

/** The borrower: the same entity, or the same token (by its accessor). */
function isBorrower(caller: Caller | undefined, state: AccountState): boolean {
  if (!caller) return false;
  if (state.borrower_entity_id && caller.entityId && state.borrower_entity_id === caller.entityId) return true;
  return Boolean(state.borrower_accessor && caller.accessor && state.borrower_accessor === caller.accessor);
}

function pathCheckIn(d: RotationDeps, isForced: boolean): PathDefinition {
  return definePath({
    pattern: isForced ? 'library/manage/*name/check-in' : 'library/*name/check-in',
    fields: {
      name: nameField,
      service_account_names: field.commaStrings({
        description: 'Accounts to check in; may be left out while the caller has only one checked out.',
      }),
    },
    operations: {
      update: {
        summary: isForced
          ? 'Check accounts in whoever borrowed them.'
          : 'Check accounts in; only their borrower may, unless the set disables the enforcement.',
        handler: async ({ data, req }) => {
          const name = roleName(data.name);
          return d.setLocks.run(name, async () => {
            await requireConfig(d.storage);
            const set = await requireSet(d.storage, name);
            const isEnforced = !isForced && !set.disable_check_in_enforcement;
            const mayCheckIn = (state: AccountState) => !isEnforced || isBorrower(req.caller, state);
            const names = data.service_account_names ?? [];
            const toCheckIn: Array<[string, AccountState]> = [];
            if (names.length === 0) {
              for (const account of set.service_account_names) {
                const state = await accounts.get(d.storage, account);
                if (state && !state.is_available && mayCheckIn(state)) toCheckIn.push([account, state]);
              }
              if (toCheckIn.length > 1) {
                throw new InvalidRequestError(
                  'when multiple service accounts are checked out, the "service_account_names" to check in must be provided',
                );
              }
            }
            for (const account of new Set(names)) {
              const state = set.service_account_names.includes(account)
                ? await accounts.get(d.storage, account)
                : undefined;
              if (!state) throw new InvalidRequestError(`"${account}" is not an account of the set "${name}"`);
              if (state.is_available) continue;
              if (!mayCheckIn(state)) {
                throw new InvalidRequestError(
                  `"${account}" can't be checked in because it wasn't checked out by the caller`,
                );
              }
              toCheckIn.push([account, state]);
            }
            for (const [account, state] of toCheckIn) await checkInAccount(d, account, state);
            return { data: { check_ins: toCheckIn.map(([account]) => account) } };
          });
        },
      },
    },
    help: {
      synopsis: isForced
        ? 'Force checking service accounts in to the library.'
        : 'Check service accounts in to the library.',
      description:
        'Each account checked in gets a new password in the directory. Answers `check_ins`: the accounts checked in.',
    },
  });
}

function pathStatus(): PathDefinition {
  return definePath({
    pattern: 'library/*name/status',
    fields: { name: nameField },
    operations: {
      read: {
        summary: 'Whether each account of the set is available, and who borrowed those that are not.',
        handler: async ({ storage, data }) => {
          const name = roleName(data.name);
          const set = await requireSet(storage, name);
          // Keyed by account name: no inherited key such as `constructor` may answer.
          const status: Record<string, unknown> = Object.create(null);
          for (const account of set.service_account_names) {
            const state = await accounts.get(storage, account);
            if (!state) continue;
            status[account] = state.is_available
              ? { available: true }
              : {
                  available: false,
                  ...(state.borrower_entity_id ? { borrower_entity_id: state.borrower_entity_id } : {}),
                  ...(state.borrower_accessor ? { borrower_accessor: state.borrower_accessor } : {}),
                };
          }
          return { data: status };
        },
      },
    },
    help: {
      synopsis: 'Check the status of the service accounts in a library set.',
      description:
        'A borrowed account shows `borrower_entity_id` and `borrower_accessor` (the accessor of the ' +
        "borrower's token: the engine never sees tokens, so it cannot show `borrower_client_token`).",
    },
  });
}

/**
 * The lease of a check-out: its end (expiry, revocation) checks the account in, unless that
 * check-out was already checked in (by `check-in`, or forced); renewing re-reads the set's TTLs.
 */
export function checkoutSecret(d: RotationDeps): SecretType {
  const current = async (internal: Record<string, unknown>) => {
    const lease = internal as unknown as CheckoutInternal;
    const state = await accounts.get(d.storage, lease.service_account_name);
    const isSame = state !== undefined && !state.is_available && state.checkout_id === lease.checkout_id;
    return { lease, state: isSame ? state : undefined };
  };
  return {
    type: CHECKOUT_CREDS,
    async revoke({ internal }) {
      const setName = (internal as unknown as CheckoutInternal).set_name;
      await d.setLocks.run(setName, async () => {
        const { lease, state } = await current(internal);
        if (state) await checkInAccount(d, lease.service_account_name, state);
      });
    },
    async renew({ internal }) {
      const { lease, state } = await current(internal);
      if (!state) {
        throw new InvalidRequestError(
          `${lease.service_account_name} is already checked in, please call check-out to regain it`,
        );
      }
      const set = await requireSet(d.storage, lease.set_name);
      if (set.max_ttl <= 0) return set.ttl ? { ttlSeconds: set.ttl } : undefined;
      const left = Math.floor(((state.checked_out_ms ?? 0) + set.max_ttl * 1000 - d.clock.now()) / 1000);
      if (left <= 0) throw new InvalidRequestError('lease has reached the max_ttl of its set');
      return { ttlSeconds: Math.min(set.ttl || left, left) };
    },
  };
}
