import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { TotpDeps } from './deps.js';
import { keyStore, requireKeyName } from './key-store.js';

/** `code/:name`: generate the current code (read) or check one (write). */
export function pathCode(d: TotpDeps) {
  return definePath({
    pattern: 'code/:name',
    fields: {
      name: field.path({ description: 'Name of the key.' }),
      code: field.string({ description: 'The code to check (write only).', default: '' }),
    },
    operations: {
      read: {
        summary: 'Generate the code of the current time step.',
        handler: async ({ storage, data }) => {
          requireKeyName(data.name);
          const entry = await requireKey(storage, data.name);
          return { data: { code: d.keyCodes.of(entry).code(unixSeconds(d)) } };
        },
      },
      update: {
        summary: 'Check a code; each code is accepted at most once.',
        handler: async ({ storage, data }) => {
          requireKeyName(data.name);
          const code = data.code.trim();
          if (code === '') throw new InvalidRequestError('the code value is required');
          const valid = await d.locks.run(data.name, () => checkCode(d, storage, data.name, code));
          return { data: { valid } };
        },
      },
    },
    help: {
      synopsis: 'Generate or check a time-based one-time password.',
      description:
        'GET returns `code` for the current time step. POST with `code` returns `valid`: the code of the ' +
        'current step or, with skew 1, of the step before or after. A code, right or wrong, is then refused ' +
        'for period × (2 + skew) seconds, also after a restart and on every server sharing the storage.',
    },
  });
}

/**
 * Checks `code` under the key's lock. The replay record is consulted before the check and
 * written after it whether the code was valid or not, as established servers do: without
 * that, a code seen on the wire could be replayed for the rest of its validity.
 */
async function checkCode(d: TotpDeps, storage: Storage, name: string, code: string): Promise<boolean> {
  const entry = await requireKey(storage, name);
  if (await d.usedCodes.isUsed(name, code)) {
    throw new InvalidRequestError('code already used; wait until the next time period');
  }
  const valid = d.keyCodes.of(entry).isValid(code, unixSeconds(d));
  await d.usedCodes.record(name, code, entry.period * (2 + entry.skew));
  return valid;
}

async function requireKey(storage: Storage, name: string) {
  const entry = await keyStore.get(storage, name);
  if (!entry) throw new InvalidRequestError(`unknown key: ${name}`);
  return entry;
}

function unixSeconds(d: TotpDeps): number {
  return Math.floor(d.clock.now() / 1000);
}
