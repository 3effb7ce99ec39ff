import {
  AndFilter,
  Attribute,
  Ber,
  BerReader,
  BerWriter,
  BindRequest,
  ExtendedRequest,
  type Filter,
  NotFilter,
  OrFilter,
  PresenceFilter,
  ProtocolOperation,
  SearchFilter,
  SearchRequest,
} from 'ldapts';

/**
 * The LDAP wire (RFC 4511) of the fake Active Directory: requests read into ldapts's own message
 * classes (their `parseMessage`), answers written with ldapts's BER writer and `Attribute`. No
 * ASN.1 is hand-written here: this file only orders the fields of each LDAP message.
 */

export type LdapRequest =
  | { kind: 'bind'; messageId: number; message: BindRequest }
  | { kind: 'search'; messageId: number; message: SearchRequest }
  | { kind: 'extended'; messageId: number; message: ExtendedRequest }
  | { kind: 'unbind'; messageId: number }
  | { kind: 'other'; messageId: number; operation: number };

/** The whole messages at the start of `buffer`, and the bytes left over (an incomplete message). */
export function readMessages(buffer: Buffer): { requests: LdapRequest[]; rest: Buffer } {
  const requests: LdapRequest[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const reader = new BerReader(buffer.subarray(offset));
    // readSequence answers the tag (null while the length is not all here) and sets `length`.
    if (reader.readSequence(0x30) === null) break;
    const end = reader.offset + reader.length;
    if (end > reader.buffer.length) break;
    requests.push(readOne(reader));
    offset += end;
  }
  return { requests, rest: buffer.subarray(offset) };
}

function readOne(reader: BerReader): LdapRequest {
  const messageId = reader.readInt() ?? 0;
  const operation = reader.peek() ?? 0;
  reader.readSequence(operation);
  const options = { messageId };
  switch (operation) {
    case ProtocolOperation.LDAP_REQ_BIND: {
      const message = new BindRequest(options);
      message.parse(reader, []);
      return { kind: 'bind', messageId, message };
    }
    case ProtocolOperation.LDAP_REQ_SEARCH: {
      const message = new SearchRequest({ ...options, filter: undefined as never });
      const again = new BerReader(reader.buffer);
      again.offset = reader.offset;
      message.parse(reader, []);
      rereadPresenceFilters(again, message.filter);
      return { kind: 'search', messageId, message };
    }
    case ProtocolOperation.LDAP_REQ_EXTENSION: {
      const message = new ExtendedRequest(options);
      message.parse(reader, []);
      return { kind: 'extended', messageId, message };
    }
    case ProtocolOperation.LDAP_REQ_UNBIND:
      return { kind: 'unbind', messageId };
    default:
      return { kind: 'other', messageId, operation };
  }
}

/**
 * ldapts 9 reads a presence filter's attribute (`(objectClass=*)`) from the start of the message
 * instead of where it is (its `PresenceFilter.parseFilter`), so it is read again here: `reader`
 * stands at the SearchRequest's first field, and the parsed tree is walked with the bytes.
 */
function rereadPresenceFilters(reader: BerReader, filter: Filter): void {
  reader.readString(); // baseObject
  reader.readEnumeration(); // scope
  reader.readEnumeration(); // derefAliases
  reader.readInt(); // sizeLimit
  reader.readInt(); // timeLimit
  reader.readBoolean(); // typesOnly
  const walk = (node: Filter) => {
    if (reader.peek() === SearchFilter.present && node instanceof PresenceFilter) {
      node.attribute = (reader.readString(SearchFilter.present) ?? '').toLowerCase();
      return;
    }
    reader.readSequence();
    if (node instanceof AndFilter || node instanceof OrFilter) for (const child of node.filters) walk(child);
    else if (node instanceof NotFilter) walk(node.filter);
    else reader.offset += reader.length;
  };
  walk(filter);
}

/** The LDAPResult fields of an answer. */
export interface LdapResult {
  code: number;
  matchedDn?: string;
  diagnostic?: string;
}

function envelope(messageId: number, operation: number, body: (w: BerWriter) => void): Buffer {
  const writer = new BerWriter();
  writer.startSequence();
  writer.writeInt(messageId);
  writer.startSequence(operation);
  body(writer);
  writer.endSequence();
  writer.endSequence();
  return writer.buffer;
}

function writeResult(w: BerWriter, r: LdapResult): void {
  w.writeEnumeration(r.code);
  w.writeString(r.matchedDn ?? '');
  w.writeString(r.diagnostic ?? '');
}

export const bindResponse = (messageId: number, r: LdapResult) =>
  envelope(messageId, ProtocolOperation.LDAP_RES_BIND, (w) => writeResult(w, r));

export const searchDone = (messageId: number, r: LdapResult) =>
  envelope(messageId, ProtocolOperation.LDAP_RES_SEARCH, (w) => writeResult(w, r));

/** An ExtendedResponse naming the request's OID ([10] responseName). */
export const extendedResponse = (messageId: number, r: LdapResult, oid?: string) =>
  envelope(messageId, ProtocolOperation.LDAP_RES_EXTENSION, (w) => {
    writeResult(w, r);
    if (oid) w.writeString(oid, Ber.Context | 10);
  });

export const searchEntry = (messageId: number, dn: string, attributes: Map<string, string[] | Buffer[]>) =>
  envelope(messageId, ProtocolOperation.LDAP_RES_SEARCH_ENTRY, (w) => {
    w.writeString(dn);
    w.startSequence();
    for (const [type, values] of attributes) new Attribute({ type, values }).write(w);
    w.endSequence();
  });

/** The notice of disconnection (RFC 4511 §4.4.1) answered to a request the fake does not serve. */
export const unsolicited = (r: LdapResult) =>
  envelope(0, ProtocolOperation.LDAP_RES_EXTENSION, (w) => {
    writeResult(w, r);
    w.writeString('1.3.6.1.4.1.1466.20036', Ber.Context | 10);
  });
