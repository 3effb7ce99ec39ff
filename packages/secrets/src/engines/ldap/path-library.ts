import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { StorageOperation } from '../../logical/storage.js';
import { configStore } from './config-store.js';
import { setAccountPassword } from './library-check-in.js';
import { accounts, type LibrarySet, librarySets } from './library-store.js';
import { MANAGED_ACCOUNTS, refuseManaged } from './managed-accounts.js';
import { roleName, rolePrefix } from './role-name.js';
import type { RotationDeps } from './static-rotation.js';

/** `ttl` and `max_ttl` of a set when the create does not send them (as established: 24 h each). */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

const fields = {
  name: field.path({
    description: 'Name of the set (stored lower case); may have levels: `org/team/name`.',
    caseInsensitive: true,
  }),
  service_account_names: field.commaStrings({
    description: 'Login names of the accounts of the set (a list or a comma-separated string).',
  }),
  ttl: field.durationSeconds({ description: 'How long a check-out lasts (default 24 h; 0: the mount default).' }),
  max_ttl: field.durationSeconds({
    description: "Longest a check-out may last with its renewals (default 24 h; 0: the mount's maximum).",
  }),
  disable_check_in_enforcement: field.bool({
    description: 'Let any caller allowed on `check-in` check in any account, not only its borrower.',
  }),
};

interface SetInput {
  service_account_names?: string[];
  ttl?: number;
  max_ttl?: number;
  disable_check_in_enforcement?: boolean;
}

/** `library` (LIST) and `library/:name`: sets of existing accounts that callers check out. */
export function pathLibrary(d: RotationDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'library/',
      fields: {},
      operations: {
        list: {
          summary: 'List the library sets.',
          handler: async ({ storage }) => ({ data: { keys: await librarySets.list(storage) } }),
        },
      },
      help: { synopsis: 'List the library sets.', description: 'Names of the sets of accounts to check out.' },
    }),
    definePath({
      pattern: 'library/*name',
      fields,
      operations: {
        list: {
          summary: 'List the sets and folders one level below `name/` (hierarchical names).',
          handler: async ({ storage, data }) => ({
            data: { keys: await librarySets.list(storage, rolePrefix(data.name)) },
          }),
        },
        read: {
          summary: 'Read a library set.',
          handler: async ({ storage, data }) => {
            const set = await librarySets.get(storage, roleName(data.name));
            if (!set) throw new NotFoundError('');
            return { data: { ...set } };
          },
        },
        create: {
          summary: "Create a library set; every account's password is rotated first.",
          handler: async ({ data }) => {
            const name = roleName(data.name);
            return d.setLocks.run(name, () => createSet(d, name, data));
          },
        },
        update: {
          summary: 'Change a library set: only the fields sent change; added accounts are rotated first.',
          handler: async ({ data, supplied }) => {
            const name = roleName(data.name);
            return d.setLocks.run(name, () => updateSet(d, name, data, supplied));
          },
        },
        delete: {
          summary: 'Delete a library set; refused while any of its accounts is checked out.',
          handler: async ({ data }) => {
            const name = roleName(data.name);
            return d.setLocks.run(name, () => deleteSet(d, name));
          },
        },
      },
      existenceCheck: async ({ storage, data }) => (await librarySets.get(storage, roleName(data.name))) !== undefined,
      help: {
        synopsis: 'Manage a library set: existing accounts that callers check out, one caller at a time.',
        description:
          'An account belongs to one set and is not also a static role. Creating a set (or adding an account) ' +
          'rotates the password of each account; each check-in rotates it again. A set with an account checked ' +
          'out cannot be deleted, nor can that account be removed from it.',
      },
    }),
  ];
}

/** The names in order, each once. */
function distinct(names: string[]): string[] {
  return [...new Set(names)];
}

function validate(set: LibrarySet): void {
  if (set.service_account_names.length === 0) {
    throw new InvalidRequestError('at least one service account must be configured');
  }
  if (set.max_ttl > 0 && set.max_ttl < set.ttl) {
    throw new InvalidRequestError(`max_ttl (${set.max_ttl} seconds) may not be less than ttl (${set.ttl} seconds)`);
  }
}

async function createSet(d: RotationDeps, name: string, data: SetInput) {
  if (!(await configStore.get(d.storage))) throw new InvalidRequestError('config must exist to create a library');
  if (!data.service_account_names?.length) {
    throw new InvalidRequestError('"service_account_names" must be provided');
  }
  const set: LibrarySet = {
    service_account_names: distinct(data.service_account_names),
    ttl: data.ttl ?? DEFAULT_TTL_SECONDS,
    max_ttl: data.max_ttl ?? DEFAULT_TTL_SECONDS,
    disable_check_in_enforcement: data.disable_check_in_enforcement ?? false,
  };
  validate(set);
  await d.managedLock.run(MANAGED_ACCOUNTS, async () => {
    await refuseManaged(d.storage, set.service_account_names);
    const ops = await addAccounts(d, name, set.service_account_names);
    await d.storage.transaction([...ops, librarySets.putOp(name, set)]);
  });
  return undefined;
}

/** Rotates each new account (as established, so only the engine knows its password) and gives its first state. */
async function addAccounts(d: RotationDeps, setName: string, names: string[]): Promise<StorageOperation[]> {
  const ops: StorageOperation[] = [];
  for (const account of names) {
    const password = await setAccountPassword(d, account);
    ops.push(accounts.putOp(account, { set: setName, is_available: true, password }));
  }
  return ops;
}

async function updateSet(d: RotationDeps, name: string, data: SetInput, supplied: ReadonlySet<string>) {
  const stored = await librarySets.get(d.storage, name);
  if (!stored) throw new InvalidRequestError(`"${name}" doesn't exist`);
  if (!(await configStore.get(d.storage))) throw new InvalidRequestError('config must exist to update a library');
  const set: LibrarySet = { ...stored };
  let added: string[] = [];
  let removed: string[] = [];
  if (supplied.has('service_account_names')) {
    const names = distinct(data.service_account_names ?? []);
    added = names.filter((n) => !stored.service_account_names.includes(n));
    removed = stored.service_account_names.filter((n) => !names.includes(n));
    await refuseCheckedOut(d, removed);
    set.service_account_names = names;
  }
  if (data.ttl !== undefined) set.ttl = data.ttl;
  if (data.max_ttl !== undefined) set.max_ttl = data.max_ttl;
  if (data.disable_check_in_enforcement !== undefined) {
    set.disable_check_in_enforcement = data.disable_check_in_enforcement;
  }
  validate(set);
  await d.managedLock.run(MANAGED_ACCOUNTS, async () => {
    await refuseManaged(d.storage, added, name);
    const ops = await addAccounts(d, name, added);
    await d.storage.transaction([...ops, ...removed.map(accounts.deleteOp), librarySets.putOp(name, set)]);
  });
  return undefined;
}

async function deleteSet(d: RotationDeps, name: string) {
  const set = await librarySets.get(d.storage, name);
  if (!set) return undefined;
  await refuseCheckedOut(d, set.service_account_names);
  await d.storage.transaction([...set.service_account_names.map(accounts.deleteOp), librarySets.deleteOp(name)]);
  return undefined;
}

async function refuseCheckedOut(d: RotationDeps, names: string[]): Promise<void> {
  for (const account of names) {
    const state = await accounts.get(d.storage, account);
    if (state && !state.is_available) {
      throw new InvalidRequestError(`"${account}" can't be deleted because it is currently checked out`);
    }
  }
}
