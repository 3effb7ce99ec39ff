import type { Entry } from 'ldapts';
import { NoSuchObjectError } from 'ldapts';
import type { Directory } from '../../engines/ldap/index.js';
import { UpstreamError } from '../../logical/errors.js';
import { groupName, renderFilter } from './filters.js';
import type { LdapAuthConfig } from './ldap-auth-store.js';
import { sidString } from './sid.js';

/** Runs `work` on the login's search session (as `binddn` when there is one, else as the user). */
export type SearchAs = <T>(work: (d: Directory) => Promise<T>) => Promise<T>;

/** Lookups by SID run at once, at most this many (as the established server's workers). */
const PARALLEL_LOOKUPS = 10;

/**
 * The names of the user's groups, as established: with `use_token_groups` from the SIDs of the
 * user entry's `tokenGroups` (AD; nested groups included, `groupdn` not used), else from the
 * entries `groupfilter` finds under `groupdn` (paged with `max_page_size` > 0). A group's name is
 * its `groupattr` values (a DN value gives its CN) or, when it has none, the CN of its own DN.
 */
export async function directoryGroups(
  config: LdapAuthConfig,
  searchAs: SearchAs,
  userDn: string,
  username: string,
): Promise<string[]> {
  const entries = config.use_token_groups
    ? await searchAs((d) => tokenGroupEntries(d, userDn))
    : await filterGroupEntries(config, searchAs, userDn, username);
  const groups = new Set<string>();
  for (const entry of entries) {
    const values = textValues(entry, config.groupattr);
    for (const value of values.length > 0 ? values : [entry.dn]) groups.add(groupName(value));
  }
  return [...groups];
}

async function filterGroupEntries(
  config: LdapAuthConfig,
  searchAs: SearchAs,
  userDn: string,
  username: string,
): Promise<Entry[]> {
  if (!config.groupdn || !config.groupfilter) return [];
  const filter = renderFilter(config.groupfilter, { UserDN: userDn, Username: username });
  const paged = config.max_page_size > 0 ? { paged: { pageSize: config.max_page_size } } : {};
  return searchAs((d) => d.search(config.groupdn, { scope: 'sub', filter, attributes: [config.groupattr], ...paged }));
}

/**
 * AD's constructed `tokenGroups` of the user entry (a base-scope read: AD computes it for no
 * other), then each group by its SID (`<SID=S-…>`, AD's extended DN). A SID no entry answers
 * to is skipped, as established; a directory that fails is a 502.
 */
async function tokenGroupEntries(d: Directory, userDn: string): Promise<Entry[]> {
  if (!userDn) return [];
  const base = { scope: 'base', filter: '(objectClass=*)' } as const;
  const [user] = await d.search(userDn, {
    ...base,
    attributes: ['tokenGroups'],
    explicitBufferAttributes: ['tokenGroups'],
  });
  if (!user) return [];
  const sids = binaryValues(user, 'tokenGroups').flatMap((bytes) => sidString(bytes) ?? []);
  const found: Entry[] = [];
  for (let i = 0; i < sids.length; i += PARALLEL_LOOKUPS) {
    const batch = sids.slice(i, i + PARALLEL_LOOKUPS).map(async (sid) => {
      try {
        return (await d.search(`<SID=${sid}>`, { ...base, attributes: ['1.1'] }))[0];
      } catch (err) {
        if (err instanceof UpstreamError && err.cause instanceof NoSuchObjectError) return undefined;
        throw err;
      }
    });
    for (const entry of await Promise.all(batch)) if (entry) found.push(entry);
  }
  return found;
}

const valuesOf = (entry: Entry, attr: string) => {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attr.toLowerCase());
  const value = key ? entry[key] : undefined;
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};

/** The values of `attr` (its name in any case) as text. */
export const textValues = (entry: Entry, attr: string): string[] =>
  valuesOf(entry, attr).map((v) => (typeof v === 'string' ? v : v.toString('utf8')));

const binaryValues = (entry: Entry, attr: string): Buffer[] =>
  valuesOf(entry, attr).flatMap((v) => (Buffer.isBuffer(v) ? [v] : []));
