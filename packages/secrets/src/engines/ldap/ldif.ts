import { CodedError } from '@ward/base';

/** One change an LDIF record asks for. Values are bytes: `attr:: base64` may carry any. */
export type LdifEntry =
  | { kind: 'add'; dn: string; attributes: Map<string, Buffer[]> }
  | { kind: 'delete'; dn: string }
  | {
      kind: 'modify';
      dn: string;
      changes: Array<{ operation: 'add' | 'replace' | 'delete'; type: string; values: Buffer[] }>;
    };

/** LDIF that does not parse; the message reads `Error in line N: …`. */
export class LdifError extends CodedError<'ldif_syntax'> {
  readonly code = 'ldif_syntax';
}

interface Line {
  number: number;
  /** The logical line, continuations joined, as bytes read one per character (latin1). */
  text: string;
}

const ATTR = /^(?:[A-Za-z][A-Za-z0-9;-]*|[0-9][0-9.;-]*)$/;

/**
 * Parses LDIF (RFC 2849 as go-ldap/ldif reads it): records separated by blank lines, lines
 * starting with a space continue the previous one, `#` comments, an optional `version: 1`,
 * `changetype` add (or none), delete and modify, `attr:: base64`. File references (`attr:<`)
 * are refused: a server must not read its own files on a client's behalf.
 * `bytes` are the rendered template, so binary values (`utf16le`) survive.
 */
export function parseLdif(bytes: Buffer): LdifEntry[] {
  const entries: LdifEntry[] = [];
  const records = logicalRecords(bytes.toString('latin1'));
  records.forEach((record, index) => {
    if (index === 0 && /^version:/i.test(record[0]?.text ?? '')) {
      const [version, ...rest] = record;
      if (value(version as Line).toString('latin1') !== '1') fail(version as Line, 'invalid version');
      if (rest.length === 0) return;
      record = rest;
    }
    entries.push(parseRecord(record));
  });
  return entries;
}

function fail(line: Line, message: string): never {
  throw new LdifError(`Error in line ${line.number}: ${message}`);
}

/** Lines grouped into records, continuations joined and comments dropped. */
function logicalRecords(text: string): Line[][] {
  const records: Line[][] = [];
  let record: Line[] = [];
  let isComment = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line === '') {
      if (record.length > 0) records.push(record);
      record = [];
      isComment = false;
    } else if (line.startsWith(' ')) {
      const last = record[record.length - 1];
      if (isComment) return;
      if (!last) fail({ number: i + 1, text: line }, 'continuation line without a line before it');
      last.text += line.slice(1);
    } else if (line.startsWith('#')) {
      isComment = true;
    } else {
      isComment = false;
      record.push({ number: i + 1, text: line });
    }
  });
  if (record.length > 0) records.push(record);
  return records;
}

function split(line: Line): [string, string] {
  const colon = line.text.indexOf(':');
  if (colon <= 0) fail(line, 'invalid line: no attribute name');
  return [line.text.slice(0, colon), line.text.slice(colon + 1)];
}

function attrName(line: Line): string {
  const [name] = split(line);
  if (!ATTR.test(name)) fail(line, `invalid attribute name ${JSON.stringify(name)}`);
  return name;
}

/** The value of `attr: text`, `attr:: base64`; `attr:<` is refused. */
function value(line: Line): Buffer {
  const [, rest] = split(line);
  if (rest.startsWith(':')) return Buffer.from(rest.slice(1).trim(), 'base64');
  if (rest.startsWith('<')) fail(line, 'file references are not supported');
  const text = rest.replace(/^ +/, '');
  if (text === '') fail(line, 'empty value');
  return Buffer.from(text, 'latin1');
}

function parseRecord(lines: Line[]): LdifEntry {
  const [first, ...rest] = lines as [Line, ...Line[]];
  if (split(first)[0].toLowerCase() !== 'dn') fail(first, 'record must start with dn:');
  const dn = value(first).toString('utf8');
  const body = rest.filter((l) => !/^control:/i.test(l.text));
  if (body.length === 0) fail(first, 'only a dn: line');
  let kind = 'add';
  if (split(body[0] as Line)[0].toLowerCase() === 'changetype') {
    const line = body.shift() as Line;
    kind = value(line).toString('latin1').trim();
    if (kind === 'moddn' || kind === 'modrdn') fail(line, 'unsupported changetype');
    if (kind !== 'add' && kind !== 'delete' && kind !== 'modify') fail(line, `invalid changetype ${kind}`);
  }
  if (kind === 'delete') {
    if (body.length > 0) fail(body[0] as Line, 'no attributes may follow a delete');
    return { kind: 'delete', dn };
  }
  if (kind === 'modify') return { kind: 'modify', dn, changes: modifyGroups(body, dn) };
  if (body.length === 0) fail(first, 'an add needs attributes');
  const attributes = new Map<string, Buffer[]>();
  for (const line of body) {
    const name = attrName(line);
    attributes.set(name, [...(attributes.get(name) ?? []), value(line)]);
  }
  return { kind: 'add', dn, attributes };
}

function modifyGroups(body: Line[], dn: string) {
  const changes: Extract<LdifEntry, { kind: 'modify' }>['changes'] = [];
  let current: (typeof changes)[number] | undefined;
  for (const line of body) {
    if (line.text === '-') {
      if (!current) fail(line, 'unexpected -');
      changes.push(current);
      current = undefined;
      continue;
    }
    if (!current) {
      const operation = split(line)[0].toLowerCase();
      if (operation !== 'add' && operation !== 'replace' && operation !== 'delete') {
        fail(line, `invalid modify operation ${operation}`);
      }
      current = { operation, type: value(line).toString('latin1').trim(), values: [] };
      continue;
    }
    const name = attrName(line);
    if (name.toLowerCase() !== current.type.toLowerCase()) {
      fail(line, `invalid attribute ${name} in ${current.operation} request for ${current.type}`);
    }
    current.values.push(value(line));
  }
  if (current) fail(body[body.length - 1] as Line, `modify request for ${dn} does not close with a single dash`);
  return changes;
}
