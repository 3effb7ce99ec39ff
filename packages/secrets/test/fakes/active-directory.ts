import { createServer, type Server, type Socket } from 'node:net';
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls';
import {
  AndFilter,
  EqualityFilter,
  type Filter,
  NotFilter,
  OrFilter,
  PresenceFilter,
  type SearchRequest,
  SubstringFilter,
} from 'ldapts';
import {
  bindResponse,
  extendedResponse,
  readMessages,
  searchDone,
  searchEntry,
  unsolicited,
} from './active-directory-wire.js';

/**
 * A protocol-level fake of Active Directory's LDAP service, for what slapd cannot do: AD accepts a
 * simple bind whose name is a user principal name (`alice@corp.example.test`) or `DOMAIN\name`, not
 * only a DN, and keeps `memberOf` on users and groups from the groups' `member`. Like AD it refuses
 * searches on a connection that has not bound as someone (operationsError, `000004DC`), answers a
 * wrong password with invalidCredentials and AD's `data 52e` text, and offers StartTLS when given a
 * certificate. Users and groups carry a binary `objectSid`; a base-scope read of an entry's
 * `tokenGroups` lists the SIDs of all its groups, nested ones too (computed from `member`), and a
 * search base `<SID=S-…>` names the entry with that SID. Plain TCP on 127.0.0.1; entries live in memory.
 */

const START_TLS = '1.3.6.1.4.1.1466.20037';
const WRONG_PASSWORD = '80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data 52e, v4563';
const BIND_FIRST =
  '000004DC: LdapErr: DSID-0C090A5C, comment: In order to perform this operation a successful bind must be ' +
  'completed on the connection., data 0, v4563';
/** The domain's SID: every user's and group's SID is this and a relative identifier (RID). */
const DOMAIN_SID = 'S-1-5-21-3623811015-3361044348-30300820';
const NO_SUCH_OBJECT = "0000208D: NameErr: DSID-0310020A, problem 2001 (NO_OBJECT), data 0, best match of:\n\t''";

interface AdEntry {
  dn: string;
  attributes: Map<string, string[]>;
  password?: string;
  /** The security identifier (`S-1-5-21-…-<RID>`) of users and groups: `objectSid`, and what `tokenGroups` lists. */
  sid?: string;
}

/** Attribute values as written on the wire: text, or binary (`objectSid`, `tokenGroups`). */
type WireAttributes = Map<string, string[] | Buffer[]>;

export interface FakeActiveDirectory {
  url: string;
  /** `DC=corp,DC=example,DC=test` */
  baseDn: string;
  /** `corp.example.test`: the UPN suffix. */
  domain: string;
  /** Where users are created: `CN=Users,<baseDn>`. */
  usersDn: string;
  groupsDn: string;
  /** Adds a user (`sAMAccountName` and UPN from `name`); answers its DN. */
  addUser(name: string, password: string): string;
  /** Adds a group whose `member` values are `members` (user or group DNs); answers its DN. */
  addGroup(name: string, members: string[]): string;
  /** Every bind name received, in order (the password is not kept). */
  readonly binds: string[];
  /** Every search received: base, scope, filter as text, and the alias dereferencing asked for. */
  readonly searches: Array<{ base: string; scope: string; filter: string; derefAliases: string }>;
  close(): Promise<void>;
}

/** A DN compared as AD compares them: case-insensitive, spaces around separators ignored. */
const normalDn = (dn: string) =>
  dn
    .split(',')
    .map((rdn) => rdn.trim().replace(/\s*=\s*/, '='))
    .join(',')
    .toLowerCase();

export async function startFakeActiveDirectory(
  o: { domain?: string; tls?: { key: string; cert: string } } = {},
): Promise<FakeActiveDirectory> {
  const domain = o.domain ?? 'corp.example.test';
  const baseDn = domain
    .split('.')
    .map((part) => `DC=${part}`)
    .join(',');
  const usersDn = `CN=Users,${baseDn}`;
  const groupsDn = `OU=Groups,${baseDn}`;
  const netbios = (domain.split('.')[0] ?? '').toUpperCase();
  const entries = new Map<string, AdEntry>();
  // Users and groups get SIDs of the domain with RIDs counted up, as a domain controller allocates them.
  let nextRid = 1103;
  const put = (dn: string, attributes: Record<string, string[]>, password?: string, isPrincipal = false) => {
    const map = new Map(Object.entries(attributes));
    map.set('distinguishedName', [dn]);
    const sid = isPrincipal ? `${DOMAIN_SID}-${nextRid++}` : undefined;
    entries.set(normalDn(dn), {
      dn,
      attributes: map,
      ...(password === undefined ? {} : { password }),
      ...(sid ? { sid } : {}),
    });
  };
  put(baseDn, { objectClass: ['top', 'domain', 'domainDNS'] });
  put(usersDn, { objectClass: ['top', 'container'], cn: ['Users'] });
  put(groupsDn, { objectClass: ['top', 'organizationalUnit'], ou: ['Groups'] });
  const tls = o.tls ? createSecureContext({ key: o.tls.key, cert: o.tls.cert }) : undefined;
  const binds: string[] = [];
  const searches: FakeActiveDirectory['searches'] = [];

  /** The entry a bind name names: a UPN, `NETBIOS\sAMAccountName`, or a DN. */
  const principal = (name: string): AdEntry | undefined => {
    const lower = name.toLowerCase();
    for (const entry of entries.values()) {
      if (!entry.password) continue;
      const upn = entry.attributes.get('userPrincipalName')?.[0]?.toLowerCase();
      const sam = entry.attributes.get('sAMAccountName')?.[0]?.toLowerCase();
      if (upn === lower || `${netbios.toLowerCase()}\\${sam}` === lower) return entry;
    }
    return entries.get(normalDn(name));
  };

  const directory: Directory = { entries, principal, tls, binds, searches };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, directory, (tlsSocket) => sockets.add(tlsSocket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `ldap://127.0.0.1:${port}`,
    baseDn,
    domain,
    usersDn,
    groupsDn,
    binds,
    searches,
    addUser(name, password) {
      const dn = `CN=${name},${usersDn}`;
      put(
        dn,
        {
          objectClass: ['top', 'person', 'organizationalPerson', 'user'],
          cn: [name],
          sAMAccountName: [name],
          userPrincipalName: [`${name}@${domain}`],
        },
        password,
        true,
      );
      return dn;
    },
    addGroup(name, members) {
      const dn = `CN=${name},${groupsDn}`;
      put(dn, { objectClass: ['top', 'group'], cn: [name], sAMAccountName: [name], member: members }, undefined, true);
      return dn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Directory {
  entries: Map<string, AdEntry>;
  principal(name: string): AdEntry | undefined;
  tls: SecureContext | undefined;
  binds: string[];
  searches: FakeActiveDirectory['searches'];
}

/** One client connection: requests answered in order, StartTLS switching the socket to TLS. */
function serveConnection(socket: Socket, d: Directory, onTls: (s: TLSSocket) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  let boundAs: AdEntry | undefined;
  let stream: Socket = socket;
  const onData = (chunk: Buffer) => {
    const { requests, rest } = readMessages(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const request of requests) {
      if (request.kind === 'unbind') return stream.destroy();
      if (request.kind === 'bind') {
        const { dn, password } = request.message;
        d.binds.push(dn);
        const result = bind(d, dn, password);
        boundAs = result.entry;
        stream.write(bindResponse(request.messageId, result.result));
      } else if (request.kind === 'search') {
        if (!boundAs) {
          stream.write(searchDone(request.messageId, { code: 1, diagnostic: BIND_FIRST }));
          continue;
        }
        const answers = search(d, request.message);
        if (!answers) {
          stream.write(searchDone(request.messageId, { code: 32, diagnostic: NO_SUCH_OBJECT }));
          continue;
        }
        for (const entry of answers) stream.write(searchEntry(request.messageId, entry.dn, entry.attributes));
        stream.write(searchDone(request.messageId, { code: 0 }));
      } else if (request.kind === 'extended' && request.message.oid === START_TLS && d.tls && stream === socket) {
        stream.write(extendedResponse(request.messageId, { code: 0 }, START_TLS));
        socket.removeListener('data', onData);
        const secure = new TLSSocket(socket, { isServer: true, secureContext: d.tls });
        onTls(secure);
        secure.on('data', onData);
        secure.on('error', () => secure.destroy());
        stream = secure;
      } else {
        stream.write(unsolicited({ code: 2, diagnostic: 'operation not served by the fake directory' }));
        return stream.destroy();
      }
    }
  };
  socket.on('data', onData);
  socket.on('error', () => socket.destroy());
}

/** A bind: anonymous for an empty password (as AD allows), else the principal's password must match. */
function bind(d: Directory, name: string, password: string) {
  if (password === '') return { entry: undefined, result: { code: 0 } };
  const entry = d.principal(name);
  if (!entry && !name.includes('@') && !name.includes('\\') && !name.includes('='))
    return {
      entry: undefined,
      result: { code: 34, diagnostic: '0000208F: NameErr: DSID-03100225, problem 2006 (BAD_NAME)' },
    };
  if (!entry || entry.password !== password)
    return { entry: undefined, result: { code: 49, diagnostic: WRONG_PASSWORD } };
  return { entry, result: { code: 0 } };
}

/**
 * The entries under the request's base and scope that match its filter, with the attributes asked
 * for; `undefined` when the base names no entry. A base may name an entry by its SID, as AD's
 * extended DN syntax does (`<SID=S-1-5-21-…>`). `objectSid` is binary; `tokenGroups`, a
 * constructed attribute, is computed only for a base-scope search that asks for it by name (as AD).
 */
function search(d: Directory, request: SearchRequest): Array<{ dn: string; attributes: WireAttributes }> | undefined {
  d.searches.push({
    base: request.baseDN,
    scope: request.scope,
    filter: request.filter.toString(),
    derefAliases: request.derefAliases,
  });
  const bySid = /^<SID=([^>]+)>$/i.exec(request.baseDN.trim());
  const baseEntry = bySid
    ? [...d.entries.values()].find((e) => e.sid?.toLowerCase() === bySid[1]?.toLowerCase())
    : d.entries.get(normalDn(request.baseDN));
  if (!baseEntry) return undefined;
  const base = normalDn(baseEntry.dn);
  const wanted = request.attributes.filter((a) => a !== '*');
  const found: Array<{ dn: string; attributes: WireAttributes }> = [];
  for (const [key, entry] of d.entries) {
    const depth = key === base ? 0 : key.endsWith(`,${base}`) ? key.slice(0, -base.length - 1).split(',').length : -1;
    const inScope = request.scope === 'base' ? depth === 0 : request.scope === 'one' ? depth === 1 : depth >= 0;
    if (!inScope) continue;
    const attributes = withMemberOf(d, entry);
    if (!matches(request.filter, attributes)) continue;
    const selected: WireAttributes = new Map();
    for (const [name, values] of attributes)
      if (wanted.length === 0 || wanted.includes(name.toLowerCase())) selected.set(name, values);
    if (entry.sid && (wanted.length === 0 || wanted.includes('objectsid')))
      selected.set('objectSid', [sidBytes(entry.sid)]);
    if (request.scope === 'base' && wanted.includes('tokengroups'))
      selected.set('tokenGroups', tokenGroups(d, entry).map(sidBytes));
    found.push({ dn: entry.dn, attributes: selected });
  }
  return found;
}

/** The SIDs of every group `entry` is in, directly or through groups in groups (AD's `tokenGroups`). */
function tokenGroups(d: Directory, entry: AdEntry): string[] {
  const sids: string[] = [];
  const seen = new Set<string>();
  const visit = (memberDn: string) => {
    for (const group of d.entries.values()) {
      const key = normalDn(group.dn);
      if (seen.has(key) || !group.attributes.get('member')?.some((m) => normalDn(m) === normalDn(memberDn))) continue;
      seen.add(key);
      if (group.sid) sids.push(group.sid);
      visit(group.dn);
    }
  };
  visit(entry.dn);
  return sids;
}

/**
 * The binary form of a SID (MS-DTYP §2.4.2.2): revision, the count of sub-authorities, the
 * identifier authority in 6 bytes big-endian, then each sub-authority as 4 bytes little-endian.
 */
function sidBytes(sid: string): Buffer {
  const [, revision = '1', authority = '0', ...subs] = sid.split('-');
  const bytes = Buffer.alloc(8 + 4 * subs.length);
  bytes.writeUInt8(Number(revision), 0);
  bytes.writeUInt8(subs.length, 1);
  bytes.writeUIntBE(Number(authority), 2, 6);
  subs.forEach((sub, i) => {
    bytes.writeUInt32LE(Number(sub), 8 + 4 * i);
  });
  return bytes;
}

/** The entry's attributes plus `memberOf`: the groups whose `member` names it (direct only, as AD). */
function withMemberOf(d: Directory, entry: AdEntry): Map<string, string[]> {
  const self = normalDn(entry.dn);
  const memberOf = [...d.entries.values()]
    .filter((g) => g.attributes.get('member')?.some((m) => normalDn(m) === self))
    .map((g) => g.dn);
  const attributes = new Map(entry.attributes);
  if (memberOf.length > 0) attributes.set('memberOf', memberOf);
  return attributes;
}

const valuesOf = (attributes: Map<string, string[]>, name: string) => {
  for (const [key, values] of attributes) if (key.toLowerCase() === name.toLowerCase()) return values;
  return undefined;
};

/** DN-valued attributes compare as DNs; the rest case-insensitively, as AD's default matching rules do. */
const DN_VALUED = new Set(['member', 'memberof', 'distinguishedname']);

function matches(filter: Filter, attributes: Map<string, string[]>): boolean {
  if (filter instanceof AndFilter) return filter.filters.every((f) => matches(f, attributes));
  if (filter instanceof OrFilter) return filter.filters.some((f) => matches(f, attributes));
  if (filter instanceof NotFilter) return !matches(filter.filter, attributes);
  if (filter instanceof PresenceFilter) return valuesOf(attributes, filter.attribute) !== undefined;
  if (filter instanceof EqualityFilter) {
    const wanted = Buffer.isBuffer(filter.value) ? filter.value.toString('utf8') : String(filter.value);
    const normal = DN_VALUED.has(filter.attribute.toLowerCase()) ? normalDn : (v: string) => v.toLowerCase();
    return (valuesOf(attributes, filter.attribute) ?? []).some((v) => normal(v) === normal(wanted));
  }
  if (filter instanceof SubstringFilter) {
    const values = valuesOf(attributes, filter.attribute) ?? [];
    return values.some((v) => filter.matches({ [filter.attribute]: v }));
  }
  return false;
}
