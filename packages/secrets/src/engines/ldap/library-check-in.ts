import { type AccountState, accounts } from './library-store.js';
import { newPassword } from './passwords.js';
import { type RotationDeps, reload, requireConfig } from './static-rotation.js';

/**
 * Sets a fresh password on the account (found by `userattr` = name under `userdn`) and
 * returns it. `pending`: a password a check-in left half done, to set again instead.
 */
export async function setAccountPassword(d: RotationDeps, name: string, pending?: string): Promise<string> {
  const config = await requireConfig(d.storage);
  const password = pending ?? (await newPassword(config, d.random, d.system));
  await d.pool.use(config, reload(d.storage), (directory) => directory.setPassword({ username: name }, password));
  return password;
}

/**
 * Checks an account in: its password is rotated in the directory (as established, so the
 * borrower's copy stops working) and it becomes available. The new password is saved as
 * pending before the directory changes, so a crash in between is finished with the same
 * password by the next check-in (the lease's revocation is retried by the core). A failure
 * leaves the account checked out.
 */
export async function checkInAccount(d: RotationDeps, name: string, state: AccountState): Promise<AccountState> {
  let pending = state.pending_password;
  if (pending === undefined) {
    pending = await newPassword(await requireConfig(d.storage), d.random, d.system);
    await accounts.put(d.storage, name, { ...state, pending_password: pending });
  }
  const password = await setAccountPassword(d, name, pending);
  const available: AccountState = { set: state.set, is_available: true, password };
  await accounts.put(d.storage, name, available);
  return available;
}
