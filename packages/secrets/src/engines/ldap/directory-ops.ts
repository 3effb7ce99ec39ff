import {
  Attribute,
  Change,
  type Client,
  type Entry,
  EqualityFilter,
  type Filter,
  NoSuchObjectError,
  type SearchOptions,
} from 'ldapts';
import { UpstreamError } from '../../logical/errors.js';
import type { LdapConfig } from './config-store.js';
import { upstream } from './directory.js';
import type { LdifEntry } from './ldif.js';
import { passwordChanges } from './passwords.js';

/** An entry whose password the engine changes: by DN, or by `userattr` = username under `userdn`. */
export type EntryRef = { dn: string } | { username: string };

/**
 * A search: subtree or the base entry alone, with `attributes`; `explicitBufferAttributes` come
 * back as bytes (SIDs), `paged` asks for the paged results control (RFC 2696, all pages read).
 */
export type DirectorySearch = { scope: 'base' | 'sub'; filter: string | Filter; attributes: string[] } & Pick<
  SearchOptions,
  'explicitBufferAttributes' | 'paged'
>;

/** A bound session with the directory; every operation's failure is an `UpstreamError` (502). */
export interface Directory {
  /** Sets the password of the one entry `ref` names. */
  setPassword(ref: EntryRef, password: string): Promise<void>;
  /** Runs one LDIF record (add, modify or delete). With `isMissingOk`, deleting an absent entry succeeds. */
  apply(entry: LdifEntry, o?: { isMissingOk?: boolean }): Promise<void>;
  /** The entries under `base` matching `filter` (subtree, or the base entry alone), with `attributes`. */
  search(base: string, o: DirectorySearch): Promise<Entry[]>;
}

/** Runs one LDAP operation on a bound client (the pool picks which, and retries on a dead one). */
export type RunOperation = <T>(operation: (client: Client) => Promise<T>) => Promise<T>;

/** The engine's directory operations, each run through `run`. */
export function directoryOps(run: RunOperation, config: LdapConfig): Directory {
  return {
    async setPassword(ref, password) {
      const dn = await findOne(run, config, ref);
      await run((client) => client.modify(dn, passwordChanges(config, password))).catch((err) => {
        throw upstream(`failed to set the password of ${dn}`, err);
      });
    },
    async apply(entry, o = {}) {
      try {
        await run((client) => applyEntry(client, entry));
      } catch (err) {
        if (o.isMissingOk && entry.kind === 'delete' && err instanceof NoSuchObjectError) return;
        const request = { add: 'AddRequest', delete: 'DelRequest', modify: 'ModifyRequest' }[entry.kind];
        throw upstream(`failed to run ${request}`, err);
      }
    },
    async search(base, o) {
      const { searchEntries } = await run((client) => client.search(base, o)).catch((err) => {
        throw upstream('LDAP search failed', err);
      });
      return searchEntries;
    },
  };
}

function applyEntry(client: Client, entry: LdifEntry): Promise<void> {
  if (entry.kind === 'add') {
    const attributes = [...entry.attributes].map(([type, values]) => new Attribute({ type, values }));
    return client.add(entry.dn, attributes);
  }
  if (entry.kind === 'delete') return client.del(entry.dn);
  const changes = entry.changes.map(
    (c) => new Change({ operation: c.operation, modification: new Attribute({ type: c.type, values: c.values }) }),
  );
  return client.modify(entry.dn, changes);
}

/** The DN of the one entry `ref` names; anything but exactly one match is refused. */
async function findOne(run: RunOperation, config: LdapConfig, ref: EntryRef): Promise<string> {
  const { searchEntries } = await run((client) =>
    'dn' in ref
      ? client.search(ref.dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] })
      : client.search(config.userdn, {
          scope: 'sub',
          // A filter object, not text: the username cannot inject filter syntax.
          filter: new EqualityFilter({ attribute: config.userattr, value: ref.username }),
          attributes: ['1.1'],
        }),
  ).catch((err) => {
    throw upstream('failed to find the entry', err);
  });
  const [entry] = searchEntries;
  if (searchEntries.length !== 1 || !entry) {
    throw new UpstreamError(`expected one matching entry, but received ${searchEntries.length}`);
  }
  return entry.dn;
}
